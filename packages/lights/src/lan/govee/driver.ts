import type { RemoteInfo, Socket } from 'node:dgram';
import { LightError } from '../../errors.js';
import { createLanDriver, type LanAdapter, type LanKit } from '../skeleton/lan-driver.js';
import { toDeviceInfo, toLightInfo, type GoveeDevice } from './device.js';
import {
  GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS,
  type GoveeLanDriver,
  type GoveeLanDriverOptions,
} from './driver-options.js';
import { createGoveeLookSender } from './look-sender.js';
import { parseGoveeDatagram, toGoveeLook } from './messages.js';
import { createReplyGate, GOVEE_LAN_MAX_DATAGRAM_BYTES, type ReplyGate } from './reply-gate.js';
import { createGoveeRoomState, type GoveeRoomState } from './room.js';
import { createGoveeScanner, type GoveeScanner } from './scanner.js';
import { requireLook, resolveGoveeSettings, type GoveeLanSettings } from './settings.js';
import { bindGoveeSocket } from './socket.js';

export * from './driver-options.js';

const CLOSED = 'Govee LAN driver is closed';

/**
 * Govee devices over the LAN API (reference/nanoleaf-govee.md §2.1) on one UDP socket bound to the
 * listen port (4002, with reuseAddr) that sends scans and commands and receives every reply.
 * Per change a device gets `turn` + `brightness` + `colorwc` (off: `turn` 0), paced 40 ms apart;
 * the last one again after 200 ms (no acknowledgement); then `devStatus`, and the look is sent
 * again when the answer differs or does not come (3 tries, then the device is reported). The
 * newest look replaces whatever is queued. Scans repeat; a device that misses 3 in a row is
 * reported unreachable and found again (also at a new address) by its id; after 6 it is removed.
 * Anyone on the LAN can send to the listen port, so a scan reply counts only while our scan is
 * outstanding, from an allowed address (reply-guard.ts), up to 64 devices, and commands go to the
 * address it came from, never to one it names.
 *
 * The adapter on the LAN skeleton (`../skeleton/`): finding is a scan (`scanner.ts`), a look is
 * its datagrams paced by the skeleton's queue and confirmed by a status read (`look-sender.ts`).
 */
export function createGoveeLanDriver(options: GoveeLanDriverOptions): GoveeLanDriver {
  const settings = resolveGoveeSettings(options);
  const { timers, log, minGapMs } = settings;
  const { driver, adapter, kit } = createLanDriver({
    provider: 'govee_lan',
    lightsWord: 'Govee LAN devices',
    closedMessage: CLOSED,
    timers,
    log,
    // Govee's LAN API has no strobe: the player expands flashes into timed looks.
    nativeStrobe: false,
    minStrobeHalfPeriodMs: () => Math.max(GOVEE_LAN_MIN_STROBE_HALF_PERIOD_MS, 2 * minGapMs),
    paceMs: minGapMs,
    rescanIntervalMs: settings.rescanIntervalMs,
    onRescanError: (error) => log(`Govee LAN: re-scan failed: ${String(error)}`),
    adapter: (kit) => createGoveeAdapter(kit, settings),
  });
  const reachable = (d: GoveeDevice) => kit.reach.isReachable(d.id);
  return {
    ...driver,
    readStates: (ids) => adapter.room.readStates(ids),
    restoreStates: (saved) => adapter.room.restoreStates(saved),
    provider: 'govee_lan',
    devices: () => [...adapter.devices()].map((d) => toLightInfo(d, reachable(d))),
    listenPort: () => adapter.socket()?.address().port ?? null,
    scanFoundNothing: () => adapter.scanner.foundNothing(),
    ignoredReplies: () => adapter.gate.counts(),
  };
}

interface GoveeAdapter extends LanAdapter<GoveeDevice, string> {
  scanner: GoveeScanner;
  room: GoveeRoomState;
  gate: ReplyGate;
  socket(): Socket | null;
}

function createGoveeAdapter(kit: LanKit<string>, settings: GoveeLanSettings): GoveeAdapter {
  const { ports, log, bindAddress, fromReply } = settings;
  const gate = createReplyGate({ timers: kit.timers, log, replyWindowMs: settings.replyWindowMs });
  const devices = new Map<string, GoveeDevice>();
  const sender = createGoveeLookSender(kit, settings);
  const room = createGoveeRoomState({ kit, devices, sender });
  let socket: Socket | null = null;
  let opening: Promise<Socket> | null = null;

  function open(): Promise<Socket> {
    if (kit.isClosed()) return Promise.reject(new LightError('not-configured', CLOSED));
    opening ??= bindGoveeSocket({ port: ports.listen, bindAddress, onMessage: receive, log }).then(
      (s) => (socket = s),
      (error: LightError) => {
        opening = null;
        kit.events.emit({ type: 'error', error: { kind: 'network', message: error.message } });
        throw error;
      },
    );
    return opening;
  }

  function sendRaw(text: string, port: number, address: string): void {
    if (!socket || kit.isClosed()) return;
    socket.send(text, port, address, (error) => {
      if (error) log(`Govee LAN: send to ${address}:${port} failed: ${error.message}`);
    });
  }

  const scanner = createGoveeScanner({ kit, settings, devices, gate, sender, open, sendRaw });

  function receive(datagram: Buffer, from: RemoteInfo): void {
    if (datagram.length > GOVEE_LAN_MAX_DATAGRAM_BYTES) {
      gate.ignore('oversize', `ignored a ${datagram.length}-byte datagram from ${from.address}`);
      return;
    }
    const message = parseGoveeDatagram(datagram.toString('utf8'));
    if (message?.cmd === 'scan') scanner.found(message.reply, from);
    else if (message?.cmd === 'devStatus') {
      // A status names no device: it is told by where it came from.
      const device = [...devices.values()].find(
        (d) => d.address === from.address && (!fromReply || d.port === from.port),
      );
      if (device) {
        sender.statusFrom(device, message.status);
        room.statusFrom(device, message.status);
      }
    }
  }

  const releaseAll = () => devices.forEach((device) => sender.release(device));

  return {
    scanner,
    room,
    gate,
    socket: () => socket,
    find: () => scanner.scanOnce(),
    devices: () => [...devices.values()],
    idOf: (device) => device.id,
    toInfo: (device) => toDeviceInfo(device, kit.reach.isReachable(device.id)),
    requireLook,
    show: (device, look) => sender.start(device, toGoveeLook(look)),
    send(id, datagram) {
      const device = devices.get(id);
      if (device) {
        device.sent += 1;
        sendRaw(datagram, device.port, device.address);
      }
      return Promise.resolve();
    },
    onLost: (id) => {
      const device = devices.get(id);
      if (device) sender.release(device);
    },
    onBack: (id) => {
      const device = devices.get(id);
      if (device?.look) void sender.start(device, device.look).catch(() => undefined);
    },
    onCancel: releaseAll,
    async close() {
      releaseAll();
      const s = socket ?? (opening ? await opening.catch(() => null) : null);
      socket = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}
