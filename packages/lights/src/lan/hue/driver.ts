import { HUE_GAMUTS, hsbToXy, type LightColor, type LightStep } from '@flaglight/core';
import type { DriverListener, LightDeviceInfo, LightDriver, LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { createHueDriver, toHueCommand } from '../../hue/driver.js';
import type { HueLightInfo, HueSignaling } from '../../hue/transports.js';
import { expandStrobe } from '../../player/strobe.js';
import { systemTimers, TargetScheduler, type Timers } from '../../timers.js';
import type { RoomStateDriver } from '../room-state.js';
import { createHueRoomState } from './room.js';
import { createHueLocalTransport, type HueLocalTransport } from './transport.js';

/**
 * Between two light commands on one bridge: a little slower than Hue's ~10/s (reference §2.4),
 * so network jitter never bunches ten into one second at the bridge.
 */
export const HUE_LOCAL_COMMAND_GAP_MS = 110;
/** aiohue's wait on a busy bridge (reference §2.4): 0.25 s, doubling per attempt. */
export const HUE_LOCAL_RETRY_BASE_DELAY_MS = 250;
/** `signaling.duration` is counted in whole seconds. */
const SIGNAL_STEP_MS = 1_000;

export interface HueLocalDriverOptions {
  url: string;
  bridgeId: string;
  applicationKey: string;
  fingerprint256: string;
  timers?: Timers;
  /** Between two light commands on this bridge; default 110 ms (~9/s). */
  gapMs?: number;
  retryBaseDelayMs?: number;
  timeoutMs?: number;
}

export interface HueLocalLightInfo {
  id: string;
  label: string;
  type: string;
  /** The bridge flashes it itself (`signaling`); otherwise strobes are paced writes. */
  signaling: boolean;
}

export interface HueLocalDriver extends LightDriver, RoomStateDriver {
  readonly provider: 'hue_local';
  readonly transport: HueLocalTransport;
  readonly connected: boolean;
  connect(): Promise<LightDeviceInfo[]>;
  devices(): HueLocalLightInfo[];
  pendingCount(): number;
  close(): Promise<void>;
}

type Strobe = Extract<LightStep, { kind: 'strobe' }>;

const xyOf = (color: LightColor, light: HueLightInfo | undefined) => {
  const xy = hsbToXy(color, light?.gamut ?? HUE_GAMUTS.C);
  return { x: Math.round(xy.x * 10000) / 10000, y: Math.round(xy.y * 10000) / 10000 };
};

/**
 * The CLIP v2 signal for a strobe on one light, if it lists the one needed: `on_off_color` for a
 * colour against dark (every core strobe), `alternating` for two colours (reference §2.4).
 */
export function signalFor(step: Strobe, light: HueLightInfo | undefined): HueSignaling | null {
  const signal = step.fromColor.off ? 'on_off_color' : 'alternating';
  if (!light?.signalValues?.includes(signal)) return null;
  const total = step.periodMs * step.cycles;
  return {
    signal,
    duration: Math.max(SIGNAL_STEP_MS, Math.round(total / SIGNAL_STEP_MS) * SIGNAL_STEP_MS),
    colors: step.fromColor.off
      ? [{ xy: xyOf(step.color, light) }]
      : [{ xy: xyOf(step.color, light) }, { xy: xyOf(step.fromColor, light) }],
  };
}

/**
 * A Hue bridge on the LAN (provider `hue_local`): the Hue driver's paced queue (~9 light
 * commands/s per bridge, a light's queued command replaced by its newer one, back-off on 429/503)
 * over the pinned `node:https` transport. A strobe becomes one `signaling` command on lights that
 * list the signal, and paced set-states (stretched to the bridge's pace) on the others.
 */
export function createHueLocalDriver(options: HueLocalDriverOptions): HueLocalDriver {
  const timers = options.timers ?? systemTimers;
  const transport = createHueLocalTransport({
    url: options.url,
    bridgeId: options.bridgeId,
    applicationKey: options.applicationKey,
    fingerprint256: options.fingerprint256,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const inner = createHueDriver({
    transport,
    timers,
    gapMs: options.gapMs ?? HUE_LOCAL_COMMAND_GAP_MS,
    retryBaseDelayMs: options.retryBaseDelayMs ?? HUE_LOCAL_RETRY_BASE_DELAY_MS,
  });
  const flashes = new TargetScheduler(timers);
  /** When each light's running signal ends: a new look stops it first. */
  const signalEnds = new Map<string, number>();

  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new LightError('not-configured', 'This Hue bridge driver is closed');
  };

  const lightOf = (id: string) => transport.lights().find((l) => l.id === id);
  const targets = (ids: readonly string[]) =>
    ids.length > 0 ? [...ids] : transport.lights().map((l) => l.id);

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    ensureOpen();
    const now = timers.now();
    const list = targets(ids);
    const signalling = list.filter((id) => (signalEnds.get(id) ?? -Infinity) > now);
    const plain = list.filter((id) => !signalling.includes(id));
    await Promise.all([
      plain.length > 0 ? inner.setState(plain, state) : undefined,
      ...signalling.map((id) => {
        signalEnds.delete(id);
        return inner.sendCommand(id, {
          ...toHueCommand(state, lightOf(id)),
          signaling: { signal: 'no_signal' },
        });
      }),
    ]);
  }

  async function strobe(ids: readonly string[], step: Strobe): Promise<void> {
    ensureOpen();
    const now = timers.now();
    const sent: Promise<void>[] = [];
    const paced: string[] = [];
    for (const id of targets(ids)) {
      const light = lightOf(id);
      const signaling = signalFor(step, light);
      if (!signaling) {
        paced.push(id);
        continue;
      }
      signalEnds.set(id, now + (signaling.duration ?? 0));
      const look = { on: true, color: step.color, brightness: step.brightness, transitionMs: 0 };
      sent.push(inner.sendCommand(id, { ...toHueCommand(look, light), signaling }));
    }
    if (paced.length > 0) {
      // No signaling: the flashes as set-states at a pace the bridge can show on these lights.
      const steps = expandStrobe(step, inner.minStrobeHalfPeriodMs(paced.length));
      for (const flash of steps) {
        const look = { on: true, color: flash.color, brightness: flash.brightness, transitionMs: 0 };
        const at = now + flash.atMs - step.atMs;
        if (at <= now) sent.push(inner.setState(paced, look));
        else flashes.at(at, () => void inner.setState(paced, look).catch(() => undefined));
      }
    }
    await Promise.all(sent);
  }

  const room = createHueRoomState({
    transport,
    send(id, command) {
      // A running signal ends with the light's own state, as a new look ends it.
      const signalling = (signalEnds.get(id) ?? -Infinity) > timers.now();
      signalEnds.delete(id);
      flashes.cancelAll();
      return inner.sendCommand(id, signalling ? { ...command, signaling: { signal: 'no_signal' } } : command);
    },
  });

  const driver: HueLocalDriver = {
    provider: 'hue_local',
    ...room,
    transport,
    nativeStrobe: true,
    minStrobeHalfPeriodMs: (count) => inner.minStrobeHalfPeriodMs(count),
    get connected() {
      return inner.connected;
    },
    listDevices: async () => {
      ensureOpen();
      return inner.listDevices();
    },
    connect: async () => {
      ensureOpen();
      return inner.connect();
    },
    devices: () =>
      transport.lights().map((l) => ({
        id: l.id,
        label: l.name,
        type: l.type,
        signaling: (l.signalValues ?? []).some((v) => v !== 'no_signal'),
      })),
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
      inner.cancelPending();
    },
    pendingCount: () => inner.pendingCount() + flashes.size,
    subscribe: (listener: DriverListener) => inner.subscribe(listener),
    async close() {
      closed = true;
      flashes.cancelAll();
      inner.cancelPending();
      transport.close();
    },
  };
  return driver;
}
