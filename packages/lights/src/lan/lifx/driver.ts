import type { RemoteInfo } from 'node:dgram';
import type { LifxPacket, LightStep } from '@flaglight/core';
import { DriverEvents, isOff, type DriverListener, type LightStateCommand } from '../../driver.js';
import { LightError } from '../../errors.js';
import { systemTimers } from '../../timers.js';
import { listLights, normaliseLifxId, toDeviceInfo, toLanLightInfo, type LanBulb } from './bulb.js';
import { createLifxDiscovery } from './discovery.js';
import {
  LIFX_LAN_ATTEMPTS,
  LIFX_LAN_DISCOVERY_WINDOW_MS,
  LIFX_LAN_MIN_GAP_MS,
  LIFX_LAN_PROBE_INTERVAL_MS,
  LIFX_LAN_RESCAN_INTERVAL_MS,
  LIFX_LAN_RESEND_AFTER_MS,
  type LifxLanDriver,
  type LifxLanDriverOptions,
} from './driver-options.js';
import { stateWrites, strobeWrites, toHex } from './messages.js';
import { createLifxRoomState } from './room.js';
import { createLifxSender } from './sender.js';
import { createLifxTransport, LIFX_LAN_CLOSED } from './transport.js';

export * from './driver-options.js';

/**
 * LIFX bulbs over the LAN protocol (reference/lan-lights.md §1), on one UDP socket bound to an
 * ephemeral port. Discovery is GetService to the configured targets (and the broadcast address only
 * when asked); each answering bulb is then driven at the address it answered from and the port its
 * StateService names. Per bulb: one message in flight (sets with `ack_required`, resent after
 * 500 ms, 3 attempts), at least 50 ms between messages, and a queue in which a newer colour or power
 * write replaces a queued one. A bulb that stops answering is marked unreachable, probed with
 * EchoRequest and re-discovered by MAC; when it answers again its last look is sent again.
 */
export function createLifxLanDriver(options: LifxLanDriverOptions): LifxLanDriver {
  const timers = options.timers ?? systemTimers;
  const log = options.onLog ?? (() => undefined);
  const minGapMs = options.minGapMs ?? LIFX_LAN_MIN_GAP_MS;
  const nativeStrobe = options.nativeStrobe ?? true;
  const targets = [...options.targets];
  const events = new DriverEvents();
  const bulbs = new Map<string, LanBulb>();
  let closed = false;
  const isClosed = () => closed;

  const transport = createLifxTransport({
    bindAddress: options.bindAddress ?? '0.0.0.0',
    // The broadcast option, or a directed broadcast target (192.168.1.255) the caller named.
    broadcast: Boolean(options.broadcast) || targets.some((t) => /\.255$/.test(t.host)),
    isClosed,
    log,
    onPacket: receive,
  });
  const sender = createLifxSender({
    timers,
    transport,
    isClosed,
    log,
    minGapMs,
    resendAfterMs: options.resendAfterMs ?? LIFX_LAN_RESEND_AFTER_MS,
    attempts: Math.max(1, options.attempts ?? LIFX_LAN_ATTEMPTS),
    onUnreachable(message) {
      events.emit({ type: 'error', error: { kind: 'timeout', message } });
      discovery.scheduleProbe();
    },
  });
  const discovery = createLifxDiscovery({
    timers,
    transport,
    sender,
    bulbs,
    isClosed,
    log,
    targets,
    broadcast: Boolean(options.broadcast),
    windowMs: options.discoveryWindowMs ?? LIFX_LAN_DISCOVERY_WINDOW_MS,
    rescanIntervalMs: options.rescanIntervalMs ?? LIFX_LAN_RESCAN_INTERVAL_MS,
    probeIntervalMs: options.probeIntervalMs ?? LIFX_LAN_PROBE_INTERVAL_MS,
  });

  function receive({ header, message }: LifxPacket, from: RemoteInfo): void {
    if (message.type === 'StateService') {
      discovery.stateService(header.sequence, header.target, message, from);
      return;
    }
    const bulb = bulbs.get(normaliseLifxId(header.target));
    if (!bulb) return;
    if (!bulb.reachable) {
      discovery.answered(bulb);
      return;
    }
    sender.receive(bulb, header.sequence, message);
  }

  function targetsOf(ids: readonly string[]): LanBulb[] {
    if (ids.length === 0) return listLights(bulbs);
    const list: LanBulb[] = [];
    const unknown: string[] = [];
    for (const id of ids) {
      const bulb = bulbs.get(normaliseLifxId(id));
      if (bulb && bulb.isLight !== false) list.push(bulb);
      else unknown.push(id);
    }
    if (unknown.length > 0)
      events.emit({ type: 'warning', message: `Unknown LIFX LAN lights: ${unknown.join(', ')}` });
    return list;
  }

  async function setState(ids: readonly string[], state: LightStateCommand): Promise<void> {
    if (closed) throw new LightError('not-configured', LIFX_LAN_CLOSED);
    const on = !isOff(state);
    await Promise.all(
      targetsOf(ids).map((bulb) => {
        bulb.lastLook = { on, color: state.color, brightness: state.brightness };
        bulb.lastColor = on ? toHex(state.color, state.brightness) : '#000000';
        return sender.write(bulb, stateWrites(state));
      }),
    );
  }

  async function playStep(ids: readonly string[], step: Exclude<LightStep, { kind: 'restore' }>) {
    const look = { on: true, color: step.color, brightness: step.brightness };
    if (step.kind === 'set-state' || !nativeStrobe)
      return setState(ids, { ...look, transitionMs: step.kind === 'set-state' ? step.transitionMs : 0 });
    if (closed) throw new LightError('not-configured', LIFX_LAN_CLOSED);
    await Promise.all(
      targetsOf(ids).map((bulb) => {
        // The transient waveform returns the bulb to the strobe's colour.
        bulb.lastLook = look;
        bulb.lastColor = toHex(step.color, step.brightness);
        return sender.write(bulb, strobeWrites(step));
      }),
    );
  }

  return {
    provider: 'lifx_lan',
    nativeStrobe,
    // Without the waveform every change costs up to two messages at 50 ms each.
    minStrobeHalfPeriodMs: () => (nativeStrobe ? 0 : 2 * minGapMs),
    async listDevices() {
      if (!discovery.scanned()) return discovery.scan();
      return listLights(bulbs).map(toDeviceInfo);
    },
    discover: () => discovery.scan(),
    devices: () => listLights(bulbs).map(toLanLightInfo),
    setState,
    playStep,
    ...createLifxRoomState({ bulbs, sender }),
    cancelPending() {
      for (const bulb of bulbs.values()) sender.cancelWrites(bulb);
    },
    pendingCount: () => [...bulbs.values()].reduce((n, b) => n + b.queue.length, 0),
    subscribe: (listener: DriverListener) => events.subscribe(listener),
    async close() {
      if (closed) return;
      closed = true;
      discovery.stop();
      for (const bulb of bulbs.values()) sender.dropAll(bulb);
      await transport.close();
    },
  };
}
