import type { RemoteInfo } from 'node:dgram';
import { LightError } from '../../errors.js';
import type { LanKit } from '../skeleton/lan-adapter.js';
import { createGoveeDevice, goveeLabel, type GoveeDevice } from './device.js';
import { GOVEE_LAN_CONTROL_ADVICE } from './driver-options.js';
import type { GoveeLookSender } from './look-sender.js';
import { GOVEE_LAN_MULTICAST_GROUP, GOVEE_SCAN_MESSAGE, type GoveeScanReply } from './messages.js';
import type { ReplyGate } from './reply-gate.js';
import {
  isAllowedSource,
  readLocalInterfaces,
  resolveHosts,
  sameAddress,
  type SourceRule,
} from './reply-guard.js';
import type { GoveeLanSettings } from './settings.js';

// How the Govee LAN driver finds its devices: scans, the replies that may add or move a device,
// and the devices that stop answering them.

export interface GoveeScannerOptions {
  kit: LanKit<string>;
  settings: GoveeLanSettings;
  devices: Map<string, GoveeDevice>;
  gate: ReplyGate;
  sender: GoveeLookSender;
  /** Opens the socket (once); rejects when the port cannot be bound. */
  open: () => Promise<unknown>;
  sendRaw: (text: string, port: number, address: string) => void;
}

export interface GoveeScanner {
  /** One scan: two requests in the window, then the devices that did not answer are counted. */
  scanOnce(): Promise<void>;
  /** A scan reply: adds or moves a device while our scan is outstanding and from an allowed address. */
  found(reply: GoveeScanReply, from: RemoteInfo): void;
  /** The last finished scan found no device at all. */
  foundNothing(): boolean;
}

export function createGoveeScanner(options: GoveeScannerOptions): GoveeScanner {
  const { kit, settings, devices, gate, sender } = options;
  const { log, events } = kit;
  const { ports, maxDevices, fromReply } = settings;
  const closed = () => new LightError('not-configured', 'Govee LAN driver is closed');
  /** Who may answer a scan: refreshed before each scan (this computer may have changed networks). */
  let sourceRule: SourceRule = { allowed: [], interfaces: [] };
  /** Devices that answered the scan running now. */
  const answered = new Set<string>();
  let nothing = false;

  function sendScan(): void {
    gate.scanSent();
    for (const target of settings.targets) options.sendRaw(GOVEE_SCAN_MESSAGE, target.port, target.host);
    if (settings.multicast) options.sendRaw(GOVEE_SCAN_MESSAGE, ports.scan, GOVEE_LAN_MULTICAST_GROUP);
  }

  function unreachable(device: GoveeDevice): void {
    const message = `Govee device "${device.label}" is not answering on the LAN (missed ${device.missedScans} scans)`;
    kit.reach.lost(device.id, { kind: 'timeout', message }, `Govee LAN: ${message} (${device.address})`);
  }

  /** Gone for a while: dropped, so forged or departed devices do not pile up; found again as new. */
  function expire(device: GoveeDevice): void {
    unreachable(device);
    devices.delete(device.id);
    kit.reach.forget(device.id);
    const message = `Govee device "${device.label}" missed ${device.missedScans} scans: removed from the list`;
    log(`Govee LAN: ${message}`);
    events.emit({ type: 'warning', message });
  }

  async function scanOnce(): Promise<void> {
    await options.open();
    sourceRule = { allowed: await resolveHosts(settings.allowedHosts), interfaces: readLocalInterfaces() };
    if (kit.isClosed()) throw closed();
    answered.clear();
    // Two scans in the window: one lost datagram does not hide a device.
    sendScan();
    await kit.wait(settings.windowMs / 2);
    if (!kit.isClosed()) sendScan();
    await kit.wait(settings.windowMs / 2);
    if (kit.isClosed()) throw closed();
    for (const device of devices.values()) {
      if (answered.has(device.id)) continue;
      device.missedScans += 1;
      if (device.missedScans >= settings.expireLimit) expire(device);
      else if (device.missedScans >= settings.missedLimit) unreachable(device);
    }
    nothing = answered.size === 0;
    if (nothing) events.emit({ type: 'warning', message: GOVEE_LAN_CONTROL_ADVICE });
  }

  /** Commands go to where the reply came from, whatever address it names. */
  function found(reply: GoveeScanReply, from: RemoteInfo): void {
    if (!gate.open())
      return gate.ignore('unrequested', `ignored scan replies nobody asked for (${from.address})`);
    if (!isAllowedSource(from.address, sourceRule))
      return gate.ignore('source', `ignored scan replies from ${from.address}: not a light on this network`);
    const device = devices.get(reply.device);
    if (!device && devices.size >= maxDevices)
      return gate.ignore('overCap', `${maxDevices} devices known already: ignored ${reply.device}`);
    const address = from.address;
    const port = fromReply ? from.port : ports.command;
    if (reply.ip !== null && !sameAddress(reply.ip, address))
      gate.ignore(
        'payloadIp',
        `${reply.device} names ${reply.ip} but answered from ${address}: using ${address}`,
      );
    answered.add(reply.device);
    if (!device) {
      const added = createGoveeDevice(reply.device, reply.sku, address, port, goveeLabel);
      devices.set(added.id, added);
      log(`Govee LAN: found ${added.label} (${added.id}) at ${address}:${port}`);
      return;
    }
    device.missedScans = 0;
    if (device.address !== address || device.port !== port) {
      log(`Govee LAN: ${device.label} moved from ${device.address}:${device.port} to ${address}:${port}`);
      device.address = address;
      device.port = port;
      // A look sent to the old address is lost: send it again.
      if (kit.reach.isReachable(device.id) && device.look && device.phase !== 'confirmed')
        void sender.start(device, device.look).catch(() => undefined);
    }
    kit.reach.back(device.id, `Govee LAN: ${device.label} answers again`);
  }

  return { scanOnce, found, foundNothing: () => nothing };
}
