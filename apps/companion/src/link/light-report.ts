import { DEVICE_LIGHTS_BODY_LIMIT_BYTES, DEVICE_MAX_LIGHTS, DeviceLightSchema } from '@flaglight/contract';
import { LIGHT_BRANDS } from '../lights/light-label.js';
import type { Logger } from '../system/log.js';
import { ServerError, type ReportedLight, type ServerApi } from './server-api.js';

/**
 * When the companion reports its lights. The server takes 30 reports a minute per device: changes
 * are gathered (`debounceMs`), one report every `minGapMs` at most; a report that did not arrive
 * (network, 5xx, 429) is tried again after `retryMs`. A report the server refused as a whole is
 * not sent again until the lights change, or after `refusedRetryMs`.
 */
export const LIGHT_REPORT_TIMING = {
  debounceMs: 1_000,
  minGapMs: 3_000,
  retryMs: 30_000,
  refusedRetryMs: 30 * 60_000,
};
export type LightReportTiming = typeof LIGHT_REPORT_TIMING;

/**
 * Under the server's body limit for a report, with room for the envelope: DEVICE_MAX_LIGHTS lights
 * with ASCII ids and labels of the longest kind fit (about 440 KiB); ids and names of escaped or
 * multi-byte characters at every length could pass it: the lights past it are left out, each with a log line.
 */
export const LIGHT_REPORT_MAX_BYTES = DEVICE_LIGHTS_BODY_LIMIT_BYTES - 16 * 1024;
/** Lights refused one by one in a row before a report counts as refused as a whole. */
const MAX_REFUSALS_IN_A_ROW = 5;

export interface LightReporter {
  /** Reports the lights after `delayMs` (default: the debounce), keeping the minimum gap. */
  schedule(delayMs?: number): void;
  close(): void;
}

/** A light as the hub lists it: a provider the server's contract does not know yet is left out. */
type Light = Omit<ReportedLight, 'provider'> & { provider: string };

const keyOf = (light: Light) => JSON.stringify([light.provider, light.id, light.label]);
// The log writes a device's id, and the server's words, on one line (`formatLogMessage`).
const nameOf = (light: Light) =>
  `${(LIGHT_BRANDS as Record<string, string>)[light.provider] ?? light.provider} "${light.id}"`;

/**
 * The lights a report carries: each checked against the contract's own schema first (a device's
 * id the server would refuse leaves out that light, not the whole report), the ones the server
 * refused before left out, at most DEVICE_MAX_LIGHTS and LIGHT_REPORT_MAX_BYTES.
 */
export function prepareLightReport(
  found: readonly Light[],
  refused: ReadonlyMap<string, string>,
): { lights: ReportedLight[]; left: { light: Light; reason: string }[] } {
  const lights: ReportedLight[] = [];
  const left: { light: Light; reason: string }[] = [];
  let bytes = '{"lights":[]}'.length;
  for (const candidate of found) {
    const light = {
      provider: candidate.provider,
      id: candidate.id,
      label: candidate.label,
      reachable: candidate.reachable,
    };
    const earlier = refused.get(keyOf(light));
    if (earlier !== undefined) {
      left.push({ light, reason: earlier });
      continue;
    }
    const parsed = DeviceLightSchema.safeParse(light);
    if (!parsed.success) {
      left.push({ light, reason: parsed.error.issues[0]?.message ?? 'not a valid light' });
      continue;
    }
    const size = Buffer.byteLength(JSON.stringify(parsed.data)) + 1;
    if (lights.length >= DEVICE_MAX_LIGHTS || bytes + size > LIGHT_REPORT_MAX_BYTES) {
      left.push({ light, reason: `more lights than one report carries (${lights.length})` });
      continue;
    }
    bytes += size;
    lights.push(parsed.data);
  }
  return { lights, left };
}

/** The light a 400 names (`lights.3.label: …`, the server's validation message), if any. */
export function refusedLightIndex(error: ServerError): number | null {
  const match = /^lights\.(\d+)(?:[.:]|$)/.exec(error.message);
  return match ? Number(match[1]) : null;
}

/**
 * Reports the companion's lights to the server (`PUT /api/device/lights`). A light the server
 * refuses (its 400 names it) is left out and the rest reported at once; a report refused as a
 * whole is never sent again in a loop. Every light left out is logged once.
 */
export function createLightReporter(options: {
  api: Pick<ServerApi, 'reportLights'>;
  log: Logger;
  token: () => string | undefined;
  lights: () => readonly Light[];
  timing?: Partial<LightReportTiming>;
  /** The server refused the token (401): the companion was unlinked. */
  onTokenRefused?: (token: string, error: ServerError) => void;
}): LightReporter {
  const { api, log } = options;
  const timing = { ...LIGHT_REPORT_TIMING, ...options.timing };
  const refusedLights = new Map<string, string>();
  const told = new Set<string>();
  let refusedReport: { fingerprint: string; until: number } | null = null;
  let refusalsInARow = 0;
  let timer: NodeJS.Timeout | null = null;
  let lastReportAt = -Infinity;
  let closed = false;

  const schedule = (delayMs = timing.debounceMs) => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    const wait = Math.max(delayMs, lastReportAt + timing.minGapMs - Date.now());
    timer = setTimeout(send, Math.max(0, wait));
    timer.unref();
  };

  /** True the first time a light is left out for this reason: each is logged once. */
  const firstTime = (light: Light, reason: string) => {
    const key = JSON.stringify([light.provider, light.id, reason]);
    if (told.has(key)) return false;
    told.add(key);
    return true;
  };
  const tell = (light: Light, reason: string) => {
    if (firstTime(light, reason)) log.warn(`Light ${nameOf(light)} is not reported to the server: ${reason}`);
  };

  function send() {
    timer = null;
    const token = options.token();
    if (!token || closed) return;
    const { lights, left } = prepareLightReport(options.lights(), refusedLights);
    for (const { light, reason } of left) tell(light, reason);
    const fingerprint = JSON.stringify(lights);
    // The very report the server refused: not again until the lights change or the long wait ends.
    if (refusedReport?.fingerprint === fingerprint && Date.now() < refusedReport.until) {
      schedule(refusedReport.until - Date.now());
      return;
    }
    lastReportAt = Date.now();
    api.reportLights(token, lights).then(
      () => {
        refusedReport = null;
        refusalsInARow = 0;
      },
      (error: unknown) => {
        if (error instanceof ServerError && error.status === 401)
          return options.onTokenRefused?.(token, error);
        if (error instanceof ServerError && error.status === 404) return;
        if (error instanceof ServerError && error.status >= 400 && error.status < 500 && error.status !== 429)
          return refused(error, lights, fingerprint);
        log.warn(
          `Could not report the lights to the server: ${error instanceof Error ? error.message : String(error)}`,
        );
        schedule(timing.retryMs);
      },
    );
  }

  function refused(error: ServerError, lights: ReportedLight[], fingerprint: string) {
    const index = refusedLightIndex(error);
    const light = index === null ? undefined : lights[index];
    refusalsInARow += 1;
    if (light && refusalsInARow <= MAX_REFUSALS_IN_A_ROW) {
      const reason = `the server refused it (${error.message})`;
      refusedLights.set(keyOf(light), reason);
      firstTime(light, reason);
      log.warn(
        `The server refused light ${nameOf(light)} (${error.message}): reporting the others without it.`,
      );
      schedule(0);
      return;
    }
    refusedReport = { fingerprint, until: Date.now() + timing.refusedRetryMs };
    refusalsInARow = 0;
    log.warn(
      `The server refused the lights report (${error.status}: ${error.message}): it is sent again when the lights change.`,
    );
    schedule(timing.refusedRetryMs);
  }

  return {
    schedule,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
