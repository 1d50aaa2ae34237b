import {
  DriverEvents,
  type LightDeviceInfo,
  type LightProvider,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { createRescanLoop } from '../rescan-loop.js';
import { createBackoffTimer } from './backoff-timer.js';
import { createDeviceLooks, type DeviceLooks } from './device-looks.js';
import { createDeviceQueue } from './device-queue.js';
import type { LanAdapter, LanDriver, LanDriverSpec, LanKit } from './lan-adapter.js';
import { requireLook, requireStrobe } from './lan-errors.js';
import { createReachability } from './reachability.js';

export type * from './lan-adapter.js';

/**
 * The LAN drivers' skeleton: one adapter per brand (`LanAdapter`) on the same list, queue,
 * reachability, timed reads and close. Returns the driver, the kit and the adapter, so the brand's
 * factory can add its own methods (`devices()`, `inFlight()`…) beside the driver's.
 */
export function createLanDriver<
  P extends LightProvider,
  Device,
  Request,
  Adapter extends LanAdapter<Device, Request> = LanAdapter<Device, Request>,
>(
  spec: LanDriverSpec<P, Device, Request, Adapter>,
): { driver: LanDriver<P>; kit: LanKit<Request>; adapter: Adapter } {
  const { timers, log } = spec;
  const events = new DriverEvents();
  let closed = false;
  let disconnected: LightError | null = null;
  let found = false;
  const loop = createRescanLoop({
    timers,
    intervalMs: spec.rescanIntervalMs ?? 0,
    scan: async () => {
      await adapter.find();
      found = true;
      health.arm();
    },
    onError: spec.onRescanError ?? (() => undefined),
  });
  const health = createBackoffTimer({
    timers,
    firstMs: spec.healthIntervalMs ?? 0,
    run: () => {
      adapter.checkHealth?.();
      health.arm();
    },
  });
  const looks = createDeviceLooks(timers);
  const queue = createDeviceQueue<Request>({
    timers,
    paceMs: spec.paceMs,
    ...(spec.paceFrom ? { paceFrom: spec.paceFrom } : {}),
    reachable: (id) => usable() && (adapter.reachable ? adapter.reachable(id) : reach.isReachable(id)),
    ready: (id) => adapter.ready?.(id) ?? true,
    send: (id, request) => adapter.send(id, request),
  });
  const reach = createReachability({
    events,
    log,
    onLost: (id) => {
      queue.drop(id);
      looks.cancelFlashes(id);
      adapter.onLost?.(id);
    },
    onBack: (id) => (adapter.onBack ? adapter.onBack(id) : showLastLook(adapter, looks, id)),
  });
  const usable = () => !closed && disconnected === null;
  const kit: LanKit<Request> = {
    timers,
    log,
    events,
    queue,
    looks,
    reach,
    isClosed: () => closed,
    ensureUsable,
    wait: (ms) => loop.wait(ms),
    startHealth: () => health.arm(),
    disconnect,
  };
  const adapter: Adapter = spec.adapter(kit);

  function ensureUsable(): void {
    if (closed) throw new LightError('not-configured', spec.closedMessage);
    if (disconnected) throw disconnected;
  }

  function disconnect(error: LightError, logLine: string): void {
    if (!usable()) return;
    disconnected = error;
    loop.stop();
    health.stop();
    looks.stopAll();
    queue.dropAll();
    log(logLine);
    events.emit({ type: 'disconnect', error: error.toJSON() });
  }

  const warnUnknown = (unknown: readonly string[]) =>
    events.emit({ type: 'warning', message: `Unknown ${spec.lightsWord}: ${unknown.join(', ')}` });
  const list = (): LightDeviceInfo[] => adapter.devices().map((d) => adapter.toInfo(d));

  async function discover(): Promise<LightDeviceInfo[]> {
    ensureUsable();
    await loop.run();
    return list();
  }

  const each = (ids: readonly string[], show: (device: Device) => Promise<unknown>) =>
    showOnEach(adapter, ids, show, warnUnknown);

  async function setState(ids: readonly string[], look: LightStateCommand): Promise<void> {
    ensureUsable();
    (adapter.requireLook ?? requireLook)(look);
    await each(ids, (device) => adapter.show(device, look));
  }

  const driver: LanDriver<P> = {
    provider: spec.provider,
    nativeStrobe: spec.nativeStrobe,
    minStrobeHalfPeriodMs: spec.minStrobeHalfPeriodMs,
    async listDevices() {
      if (adapter.beforeList) await adapter.beforeList();
      else if (!found) await discover();
      return list();
    },
    discover,
    setState,
    async playStep(ids, step) {
      const strobe = adapter.strobe?.bind(adapter);
      if (step.kind === 'strobe' && strobe) {
        ensureUsable();
        (adapter.requireStrobe ?? requireStrobe)(step);
        return each(ids, (device) => strobe(device, step));
      }
      const transitionMs = step.kind === 'set-state' ? step.transitionMs : 0;
      return setState(ids, { on: true, color: step.color, brightness: step.brightness, transitionMs });
    },
    cancelPending() {
      for (const device of adapter.devices()) looks.cancelFlashes(adapter.idOf(device));
      queue.dropAll();
      adapter.onCancel?.();
    },
    subscribe: (listener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      loop.stop();
      health.stop();
      looks.stopAll();
      queue.dropAll();
      await adapter.close?.();
    },
  };
  return { driver, kit, adapter };
}

/** The known devices among `ids` (all for none); the ids it does not know go to `warn`, once. */
function targetsOf<Device>(
  adapter: LanAdapter<Device, never>,
  ids: readonly string[],
  warn: (unknown: readonly string[]) => void,
): Device[] {
  const all = adapter.devices();
  if (ids.length === 0) return [...all];
  const byId = new Map(all.map((d) => [adapter.idOf(d), d]));
  const unknown = ids.filter((id) => !byId.has(id));
  if (unknown.length > 0) warn(unknown);
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/**
 * Runs one look per device; every device gets its look, then the first error (if any) is thrown.
 * The looks are queued at once (no wait before them unless `beforeLook` asks for one), so a
 * `cancelPending()` right after a call drops them.
 */
function showOnEach<Device>(
  adapter: LanAdapter<Device, never>,
  ids: readonly string[],
  show: (device: Device) => Promise<unknown>,
  warnUnknown: (unknown: readonly string[]) => void,
): Promise<void> {
  const run = async () => {
    const targets = adapter.targets ? adapter.targets(ids) : targetsOf(adapter, ids, warnUnknown);
    const results = await Promise.allSettled(targets.map(show));
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
  const before = adapter.beforeLook?.();
  return before ? before.then(run) : run();
}

/** A device back in reach shows the last look it was given (when the brand has no `onBack` of its own). */
function showLastLook<Device>(adapter: LanAdapter<Device, never>, looks: DeviceLooks, id: string): void {
  const device = adapter.devices().find((d) => adapter.idOf(d) === id);
  const look = looks.last(id);
  if (device && look) void adapter.show(device, look).catch(() => undefined);
}
