import type { Timers } from '../../timers.js';

/** A reply is one datagram of a few hundred bytes: anything larger is not read (nor parsed). */
export const GOVEE_LAN_MAX_DATAGRAM_BYTES = 4_096;
/** Scan replies count only this long after the last scan request went out. */
export const GOVEE_LAN_REPLY_WINDOW_MS = 2_500;
/** The same kind of ignored reply is logged at most once in this long (with the count since). */
export const GOVEE_LAN_IGNORED_LOG_INTERVAL_MS = 60_000;

/** Why replies were ignored, counted since the driver started. */
export interface GoveeIgnoredReplies {
  /** Larger than {@link GOVEE_LAN_MAX_DATAGRAM_BYTES}. */
  oversize: number;
  /** Scan replies while no scan of ours was outstanding. */
  unrequested: number;
  /** Scan replies from an address that may not answer (not a target, not private on a local subnet). */
  source: number;
  /** New devices beyond the device cap. */
  overCap: number;
  /** Replies whose `ip` named another address than the one they came from (the source was used). */
  payloadIp: number;
}

export type IgnoredKind = keyof GoveeIgnoredReplies;

export interface ReplyGate {
  /** A scan request went out: replies count from now until the window closes. */
  scanSent(): void;
  /** Whether a scan of ours is outstanding. */
  open(): boolean;
  /** Counts one ignored reply and logs it, at most once a minute per kind. */
  ignore(kind: IgnoredKind, detail: string): void;
  counts(): GoveeIgnoredReplies;
}

export function createReplyGate(options: {
  timers: Timers;
  log: (message: string) => void;
  replyWindowMs: number;
}): ReplyGate {
  const { timers, log, replyWindowMs } = options;
  const counts: GoveeIgnoredReplies = { oversize: 0, unrequested: 0, source: 0, overCap: 0, payloadIp: 0 };
  const loggedAt = new Map<IgnoredKind, { at: number; count: number }>();
  let acceptUntil = -Infinity;
  return {
    scanSent() {
      acceptUntil = timers.now() + replyWindowMs;
    },
    open: () => timers.now() <= acceptUntil,
    ignore(kind, detail) {
      counts[kind] += 1;
      const last = loggedAt.get(kind);
      const now = timers.now();
      if (last && now - last.at < GOVEE_LAN_IGNORED_LOG_INTERVAL_MS) return;
      const since = last ? ` (${counts[kind] - last.count} since the last note)` : '';
      loggedAt.set(kind, { at: now, count: counts[kind] });
      log(`Govee LAN: ${detail}${since}`);
    },
    counts: () => ({ ...counts }),
  };
}
