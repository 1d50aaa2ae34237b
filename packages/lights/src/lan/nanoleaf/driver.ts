import http from 'node:http';
import type { LightColor, LightStep } from '@flaglight/core';
import {
  DriverEvents,
  isOff,
  type DriverListener,
  type LightDeviceInfo,
  type LightStateCommand,
} from '../../driver.js';
import { LightError } from '../../errors.js';
import { expandStrobe } from '../../player/strobe.js';
import { systemTimers, TargetScheduler } from '../../timers.js';
import type { NanoleafDriver, NanoleafDriverOptions } from './driver-types.js';
import { NANOLEAF_FRAME_UNIT_MS, ledPanels, strobeEffect, toStateBody } from './effects.js';
import { nanoleafBaseUrl, nanoleafRequest } from './http.js';
import { fetchNanoleafInfo, NANOLEAF_TOKEN_REVOKED, type NanoleafInfo } from './pairing.js';

/** An unreachable controller is asked again this often (`GET /`), and sent its last look when it answers. */
export const NANOLEAF_PROBE_INTERVAL_MS = 2_000;
/** An idle controller is read (`GET /`) this often, so one that left the network is reported without a flag. */
export const NANOLEAF_HEALTH_INTERVAL_MS = 30_000;
/**
 * A looping strobe effect is ended by the player's next look (SPEC §4: 0.5 s after the strobe). If
 * none comes this long after the strobe's own length (paused, or the flag's program cancelled), the
 * strobe's colour is set solid, so a controller never flashes on alone.
 */
export const NANOLEAF_STROBE_GUARD_MS = 1_000;
/** A device without panels (Essentials) flashes by paced `/state` writes: at most 4 a second. */
export const NANOLEAF_PACED_HALF_PERIOD_MS = 250;
/** A paired controller's address answers with another serial number: the driver stops there. */
export const NANOLEAF_SERIAL_CHANGED =
  'Nanoleaf controller serial number changed: this is not the controller Flaglight was paired with. Pair it again if you replaced it.';

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

export type { NanoleafDriver, NanoleafDriverOptions } from './driver-types.js';

interface Write {
  path: '/state' | '/effects';
  body: unknown;
  /** True once the controller took it, false when a newer look replaced it first. */
  resolve: (sent: boolean) => void;
  reject: (error: unknown) => void;
}

const CLOSED = 'This Nanoleaf driver is closed';

/** A look the device can show: hue and saturation numbers, brightness 0–1; refused clearly otherwise. */
function requireLook(color: LightColor, brightness: number): void {
  if (!Number.isFinite(color.hue) || !Number.isFinite(color.saturation))
    throw new LightError('bad-request', `Not a colour: hue ${color.hue}, saturation ${color.saturation}`);
  if (!Number.isFinite(brightness) || brightness < 0 || brightness > 1)
    throw new LightError('bad-request', `Brightness must be 0 to 1, not ${brightness}`);
}

/**
 * One Nanoleaf controller (provider `nanoleaf`) over its local OpenAPI: one device, one token. A
 * look is one `PUT /state`; a strobe is one looping `custom` effect (`PUT /effects`) built from the
 * panel layout, so the player sends one command per strobe (`nativeStrobe`). One request in flight;
 * the writes queued behind it belong to the latest look only (a newer look replaces them). A
 * dropped connection is tried once more; a time-out or refusal marks the device unreachable, it is
 * probed every 2 s and sent its last look when it answers; an idle one is read every 30 s, so one
 * that left the network is reported before the next flag. A looping strobe that no newer look ends
 * (paused mid-flag) is set solid 1 s after its length. 401 ends the driver: pair again. So does
 * another serial number at the address (another controller there): nothing more is sent to it.
 */
export function createNanoleafDriver(options: NanoleafDriverOptions): NanoleafDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const probeIntervalMs = options.probeIntervalMs ?? NANOLEAF_PROBE_INTERVAL_MS;
  const healthIntervalMs = options.healthIntervalMs ?? NANOLEAF_HEALTH_INTERVAL_MS;
  const events = new DriverEvents();
  const flashes = new TargetScheduler(timers);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let address = { ...options.address };
  let info: NanoleafInfo | null = null;
  let reachable = true;
  let authorised = true;
  let closed = false;
  /** The serial number this driver is for: another one at the address is another controller. */
  let expectedId = options.known?.id ?? null;
  let replaced = false;
  let inFlight = false;
  let queue: Write[] = [];
  let probeTimer: unknown = null;
  let healthTimer: unknown = null;
  let strobeGuard: unknown = null;
  let connecting: Promise<LightDeviceInfo[]> | null = null;
  /** What the device shows, as far as we know: the brightness an effect is scaled by. */
  let shown: { on: boolean; brightness: number } | null = null;
  /** The look to send again when an unreachable device answers. */
  let lastLook: LightStateCommand | null = null;

  const id = () => info?.id ?? options.known?.id ?? `${address.host}:${address.port}`;
  const name = () => info?.name ?? options.known?.name ?? 'Nanoleaf';
  const base = () => `${nanoleafBaseUrl(address)}/api/v1/${encodeURIComponent(options.token)}`;

  if (!/^[A-Za-z0-9]{16,64}$/.test(options.token))
    throw new LightError(
      'bad-request',
      'A Nanoleaf token is 16–64 letters and digits (the one pairing gave)',
    );

  const ensureUsable = () => {
    if (closed) throw new LightError('not-configured', CLOSED);
    if (replaced) throw new LightError('auth', NANOLEAF_SERIAL_CHANGED);
    if (!authorised) throw new LightError('auth', NANOLEAF_TOKEN_REVOKED, 401);
  };
  /** Still sending: not closed, the token taken, the controller the one paired with. */
  const active = () => !closed && authorised && !replaced;

  /**
   * A read of `GET /api/v1/<token>/`, the only answer that names the controller (so the token goes
   * with it): true when it is the controller this driver is for. Otherwise the driver stops there.
   */
  function isOurController(read: NanoleafInfo): boolean {
    expectedId ??= read.id;
    if (read.id === expectedId) return true;
    if (replaced) return false;
    replaced = true;
    dropQueue();
    flashes.cancelAll();
    endGuard();
    timers.clearTimeout(probeTimer);
    probeTimer = null;
    timers.clearTimeout(healthTimer);
    healthTimer = null;
    log(
      `Nanoleaf "${name()}" at ${address.host}:${address.port} answered with serial number ${read.id}, not ${expectedId}: nothing more is sent there`,
    );
    events.emit({ type: 'disconnect', error: { kind: 'auth', message: NANOLEAF_SERIAL_CHANGED } });
    return false;
  }

  function revoked(): void {
    if (!authorised) return;
    authorised = false;
    dropQueue();
    flashes.cancelAll();
    timers.clearTimeout(probeTimer);
    probeTimer = null;
    timers.clearTimeout(healthTimer);
    healthTimer = null;
    log(`Nanoleaf "${name()}": ${NANOLEAF_TOKEN_REVOKED}`);
    events.emit({ type: 'disconnect', error: { kind: 'auth', message: NANOLEAF_TOKEN_REVOKED } });
  }

  function unreachable(error: LightError): void {
    if (!reachable) return;
    reachable = false;
    shown = null;
    dropQueue();
    const message = `Nanoleaf "${name()}" is not answering (${error.message})`;
    log(`${message} at ${address.host}:${address.port}`);
    events.emit({ type: 'error', error: { kind: error.kind, message } });
    scheduleProbe();
  }

  function dropQueue(): void {
    const dropped = queue;
    queue = [];
    for (const write of dropped) write.resolve(false);
  }

  function scheduleProbe(): void {
    if (probeTimer !== null || !active()) return;
    probeTimer = timers.setTimeout(() => {
      probeTimer = null;
      void probe();
    }, probeIntervalMs);
  }

  async function probe(): Promise<void> {
    if (reachable || !active()) return;
    try {
      const read = await fetchNanoleafInfo(address, options.token, options.timeoutMs);
      if (!isOurController(read)) return;
      info = read;
      answered();
    } catch (error) {
      if (error instanceof LightError && error.kind === 'auth') revoked();
      else scheduleProbe();
    }
  }

  /** The device answers again: usable, and its last look is sent again. */
  function answered(): void {
    if (reachable || !active()) return;
    reachable = true;
    log(`Nanoleaf "${name()}" answers again`);
    if (lastLook) void setState([], lastLook).catch(() => undefined);
  }

  async function send(write: Write): Promise<void> {
    let attempt = 0;
    for (;;) {
      attempt += 1;
      try {
        const { status } = await nanoleafRequest(`${base()}${write.path}`, {
          method: 'PUT',
          body: write.body,
          agent,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        });
        if (status === 401 || status === 403) {
          revoked();
          throw new LightError('auth', NANOLEAF_TOKEN_REVOKED, status);
        }
        if (status < 200 || status >= 300)
          throw new LightError(
            status >= 500 ? 'server' : 'bad-request',
            `Nanoleaf "${name()}" refused ${write.path} (HTTP ${status})`,
            status,
          );
        return;
      } catch (error) {
        const light = error instanceof LightError ? error : new LightError('network', String(error));
        // Controllers drop connections under load; one more try (reference §1 "Pacing").
        if (light.kind === 'network' && attempt === 1 && !closed) continue;
        if (light.kind === 'network' || light.kind === 'timeout') unreachable(light);
        throw light;
      }
    }
  }

  function pump(): void {
    // Never beside a read: a write must not follow the read that shows another controller.
    if (inFlight || connecting !== null || !reachable || !active()) return;
    const write = queue.shift();
    if (!write) return;
    inFlight = true;
    send(write)
      .then(() => write.resolve(true), write.reject)
      .finally(() => {
        inFlight = false;
        pump();
      });
  }

  /** The writes of a new look: they replace whatever is still queued (latest state wins). */
  function submit(writes: { path: Write['path']; body: unknown }[]): Promise<boolean> {
    dropQueue();
    if (!reachable) return Promise.resolve(false);
    const sent = writes.map(
      (w) => new Promise<boolean>((resolve, reject) => queue.push({ ...w, resolve, reject })),
    );
    pump();
    return Promise.all(sent).then((all) => all.every(Boolean));
  }

  function aimedAtUs(ids: readonly string[]): boolean {
    if (ids.length === 0 || ids.includes(id())) return true;
    events.emit({ type: 'warning', message: `Unknown Nanoleaf lights: ${ids.join(', ')}` });
    return false;
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    ensureUsable();
    requireLook(state.color, state.brightness);
    if (!aimedAtUs(ids)) return;
    flashes.cancelAll();
    endGuard();
    lastLook = state;
    const body = toStateBody(state);
    const on = !isOff(state);
    if (await submit([{ path: '/state', body }]))
      shown = { on, brightness: on ? Math.round(state.brightness * 100) : (shown?.brightness ?? 0) };
  }

  async function strobe(ids: readonly string[], step: Strobe): Promise<void> {
    ensureUsable();
    requireLook(step.color, step.brightness);
    requireLook(step.fromColor, step.brightness);
    if (!(step.periodMs > 0) || !(step.cycles > 0))
      throw new LightError('bad-request', 'A strobe needs a period and cycles above 0');
    if (!aimedAtUs(ids)) return;
    flashes.cancelAll();
    endGuard();
    const solid: LightStateCommand = {
      on: true,
      color: step.color,
      brightness: step.brightness,
      transitionMs: 0,
    };
    lastLook = solid;
    const panels = info?.panels ? ledPanels(info.panels) : [];
    if (panels.length === 0) {
      // No panel layout (Essentials): the flashes as paced `/state` writes.
      const now = timers.now();
      const steps = expandStrobe(step, NANOLEAF_PACED_HALF_PERIOD_MS);
      const look = (flash: (typeof steps)[number]): LightStateCommand => ({
        on: true,
        color: flash.color,
        brightness: flash.brightness,
        transitionMs: 0,
      });
      for (const flash of steps.slice(1))
        flashes.at(
          now + flash.atMs - step.atMs,
          () => void submit([{ path: '/state', body: toStateBody(look(flash)) }]).catch(() => undefined),
        );
      await submit([{ path: '/state', body: toStateBody(look(steps[0]!)) }]);
      shown = null;
      return;
    }
    const brightness = Math.round(step.brightness * 100);
    // The effect first (the flag shows at once), then the global brightness that scales it.
    const writes: { path: Write['path']; body: unknown }[] = [
      { path: '/effects', body: strobeEffect(panels, step) },
    ];
    if (!shown?.on || shown.brightness !== brightness)
      writes.push({ path: '/state', body: { brightness: { value: brightness }, on: { value: true } } });
    strobeGuard = timers.setTimeout(
      () => {
        strobeGuard = null;
        if (active() && reachable) void setState([], solid).catch(() => undefined);
      },
      step.periodMs * step.cycles + (options.strobeGuardMs ?? NANOLEAF_STROBE_GUARD_MS),
    );
    if (await submit(writes)) shown = { on: true, brightness };
  }

  function endGuard(): void {
    timers.clearTimeout(strobeGuard);
    strobeGuard = null;
  }

  function deviceList(): LightDeviceInfo[] {
    return [
      {
        id: id(),
        label: name(),
        name: name(),
        type: info?.model ?? 'nanoleaf',
        connected: reachable && active(),
      },
    ];
  }

  function scheduleHealth(): void {
    if (healthIntervalMs <= 0 || healthTimer !== null || !active()) return;
    healthTimer = timers.setTimeout(() => {
      healthTimer = null;
      // Only while idle and reachable: a write in flight or the probe says it already.
      if (reachable && !inFlight && queue.length === 0 && active()) void connect().catch(() => undefined);
      scheduleHealth();
    }, healthIntervalMs);
  }

  async function connect(): Promise<LightDeviceInfo[]> {
    ensureUsable();
    connecting ??= (async () => {
      try {
        const read = await fetchNanoleafInfo(address, options.token, options.timeoutMs);
        if (isOurController(read)) {
          info = read;
          if (!reachable) answered();
          scheduleHealth();
        }
      } catch (error) {
        if (error instanceof LightError && error.kind === 'auth') revoked();
        else if (error instanceof LightError && (error.kind === 'network' || error.kind === 'timeout'))
          unreachable(error);
        else throw error;
      } finally {
        connecting = null;
        pump();
      }
      return deviceList();
    })();
    return connecting;
  }

  return {
    provider: 'nanoleaf',
    nativeStrobe: true,
    // animData's T counts in 100 ms: the fastest on/off is 0.2 s (SPEC's 0.1 s cannot be shown).
    minStrobeHalfPeriodMs: () => NANOLEAF_FRAME_UNIT_MS,
    get connected() {
      return reachable && active();
    },
    get authorised() {
      return authorised;
    },
    get replaced() {
      return replaced;
    },
    async listDevices() {
      if (!info && reachable) return connect();
      return deviceList();
    },
    connect,
    discover: connect,
    info: () => info,
    address: () => ({ ...address }),
    moveTo(next) {
      if (next.host === address.host && next.port === address.port) return;
      log(`Nanoleaf "${name()}" moved from ${address.host}:${address.port} to ${next.host}:${next.port}`);
      address = { ...next };
      agent.destroy();
      if (!reachable) void probe();
    },
    setState,
    async playStep(ids, step) {
      if (step.kind === 'strobe') return strobe(ids, step);
      return setState(ids, {
        on: true,
        color: step.color,
        brightness: step.brightness,
        transitionMs: step.transitionMs,
      });
    },
    cancelPending() {
      flashes.cancelAll();
      dropQueue();
    },
    pendingCount: () => queue.length + flashes.size,
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      timers.clearTimeout(probeTimer);
      timers.clearTimeout(healthTimer);
      endGuard();
      flashes.cancelAll();
      dropQueue();
      agent.destroy();
    },
  };
}
