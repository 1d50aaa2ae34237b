import type { Timers } from '../../timers.js';

interface Entry<R> {
  request: R;
  /** True once the device took it, false when a newer look replaced it first. */
  resolve: (sent: boolean) => void;
  reject: (error: unknown) => void;
}

interface Lane<R> {
  inFlight: boolean;
  /** The newest look's requests not sent yet: a newer look replaces them all. */
  waiting: Entry<R>[];
  /** When the last request started, or (pacing from answers) when its answer came. */
  paceSinceMs: number;
  paceTimer: unknown;
}

export interface DeviceQueueOptions<R> {
  timers: Timers;
  /** Least time between two requests to one device; 0: none. */
  paceMs: number;
  /**
   * What the pace counts from: the previous request's start (default), or its answer. From the
   * answer, the device sees two requests at least `paceMs` apart however long the first one took on
   * its way there; from the start, a first request held up in transit arrives closer to the next.
   */
  paceFrom?: 'start' | 'answer';
  /** False while the device cannot be reached: a look for it is not queued (resolves false). */
  reachable: (id: string) => boolean;
  /** False while requests must wait anyway (a read in progress); `kick(id)` once it is true again. */
  ready?: (id: string) => boolean;
  /** One request to the device; rejects with a `LightError`. */
  send: (id: string, request: R) => Promise<void>;
}

export interface DeviceQueue<R> {
  /**
   * A look's requests for one device, sent in order behind the one in flight; they replace whatever
   * still waits (newest look wins, the replaced ones resolve false). True once every one was sent,
   * false when one was replaced or the device is unreachable; rejects with the first that failed.
   */
  submit(id: string, requests: readonly R[]): Promise<boolean>;
  /** Sends what waits, if the device can take it now. */
  kick(id: string): void;
  /** Drops what waits for one device (resolved false); a request in flight finishes. */
  drop(id: string): void;
  dropAll(): void;
  /** A request to this device is in flight. */
  busy(id: string): boolean;
  /** Requests of a look wait behind the one in flight. */
  waiting(id: string): number;
  /** Requests in flight, over every device. */
  inFlight(): number;
}

/**
 * The per-device queue every LAN driver shares: one request in flight per device, the newest look's
 * requests waiting behind it, and `paceMs` between two requests (from the start of one, or from its
 * answer, to the start of the next).
 */
export function createDeviceQueue<R>(options: DeviceQueueOptions<R>): DeviceQueue<R> {
  const { timers, paceMs } = options;
  const fromAnswer = options.paceFrom === 'answer';
  const lanes = new Map<string, Lane<R>>();

  function laneOf(id: string): Lane<R> {
    let lane = lanes.get(id);
    if (!lane)
      lanes.set(id, (lane = { inFlight: false, waiting: [], paceSinceMs: -Infinity, paceTimer: null }));
    return lane;
  }

  function drop(id: string): void {
    const lane = lanes.get(id);
    if (!lane) return;
    timers.clearTimeout(lane.paceTimer);
    lane.paceTimer = null;
    const dropped = lane.waiting;
    lane.waiting = [];
    for (const entry of dropped) entry.resolve(false);
  }

  function pump(id: string): void {
    const lane = lanes.get(id);
    if (!lane || lane.inFlight || lane.paceTimer !== null || lane.waiting.length === 0) return;
    if (!options.reachable(id) || !(options.ready?.(id) ?? true)) return;
    const wait = lane.paceSinceMs + paceMs - timers.now();
    if (paceMs > 0 && wait > 0) {
      lane.paceTimer = timers.setTimeout(() => {
        lane.paceTimer = null;
        pump(id);
      }, wait);
      return;
    }
    const entry = lane.waiting.shift()!;
    lane.inFlight = true;
    lane.paceSinceMs = timers.now();
    options
      .send(id, entry.request)
      .then(() => entry.resolve(true), entry.reject)
      .finally(() => {
        if (fromAnswer) lane.paceSinceMs = timers.now();
        lane.inFlight = false;
        pump(id);
      });
  }

  function submit(id: string, requests: readonly R[]): Promise<boolean> {
    drop(id);
    if (!options.reachable(id)) return Promise.resolve(false);
    const lane = laneOf(id);
    const sent = requests.map(
      (request) => new Promise<boolean>((resolve, reject) => lane.waiting.push({ request, resolve, reject })),
    );
    pump(id);
    return Promise.all(sent).then((all) => all.every(Boolean));
  }

  return {
    submit,
    kick: pump,
    drop,
    dropAll: () => [...lanes.keys()].forEach(drop),
    busy: (id) => lanes.get(id)?.inFlight ?? false,
    waiting: (id) => lanes.get(id)?.waiting.length ?? 0,
    inFlight: () => [...lanes.values()].filter((lane) => lane.inFlight).length,
  };
}
