import {
  createNanoleafDriver,
  discoverNanoleafMdns,
  NANOLEAF_SERIAL_CHANGED,
  NANOLEAF_TOKEN_REVOKED,
  revokeNanoleafToken,
  type NanoleafAddress,
  type NanoleafCandidate,
  type NanoleafDriver,
  type RoomStateDriver,
} from '@flaglight/lights/lan';
import type { Logger } from '../system/log.js';
import type { StateFile, StoredNanoleaf } from '../system/state-file.js';
import type { LanDriver, LightsHub } from './lights-hub.js';
import { nanoleafReplaced } from './nanoleaf-messages.js';
import { pairController } from './nanoleaf-pairing.js';
import { addCandidate } from './nanoleaf-relocate.js';
import {
  addressText,
  BY_USER,
  createNanoleafContext,
  describeNanoleaf,
  forgetDevice,
  keyOf,
  storedNanoleaf,
  type Found,
  type NanoleafContext,
  type NanoleafView,
} from './nanoleaf-state.js';

export {
  NANOLEAF_NONE_FOUND,
  NANOLEAF_PAIR_STEPS,
  nanoleafPairAgain,
  nanoleafReplaced,
} from './nanoleaf-messages.js';
export type { NanoleafView } from './nanoleaf-state.js';

export interface NanoleafSupport {
  /** Drives the paired controllers, and lists the others (given, or found by mDNS) for pairing. */
  start(extra: readonly NanoleafAddress[], demoServer: string | null): Promise<void>;
  discover(): Promise<void>;
  /** Pairs the controller at `address` (or the first unpaired one found). */
  pair(address: string | undefined): Promise<{ ok: true; name: string } | { ok: false; error: string }>;
  /**
   * Unpairs a controller by its id: its token leaves the state file (and the controller, when it
   * answers), its driver leaves the hub; it is offered for pairing again. Null for an unknown id.
   */
  forget(id: string): Promise<{ name: string } | null>;
  view(): NanoleafView;
  close(): Promise<void>;
}

/** The hub's face of a Nanoleaf driver. */
function asLanDriver(driver: NanoleafDriver): LanDriver & RoomStateDriver {
  return {
    provider: driver.provider,
    nativeStrobe: driver.nativeStrobe,
    listDevices: () => driver.listDevices(),
    setState: (ids, state) => driver.setState(ids, state),
    playStep: (ids, step) => driver.playStep(ids, step),
    minStrobeHalfPeriodMs: (count) => driver.minStrobeHalfPeriodMs(count),
    cancelPending: () => driver.cancelPending(),
    subscribe: (listener) => driver.subscribe(listener),
    discover: () => driver.discover(),
    // The room's snapshot reads and gives back the controller's own state and effect.
    readStates: (ids) => driver.readStates(ids),
    restoreStates: (saved) => driver.restoreStates(saved),
    close: () => driver.close(),
  };
}

/**
 * Nanoleaf controllers on the LAN: paired ones are driven (one driver and token each, kept in the
 * state file); the others wait for the power-button pairing. A controller that refuses its token
 * (401: reset, or the token removed) is forgotten and offered for pairing again. A token goes only
 * to the controller that issued it: an unreachable one is followed to a new address the user gave,
 * or to one whose mDNS record shows the TXT `id` stored at pairing (anyone on the LAN can announce
 * a record, and nothing a controller answers without its token names it). Otherwise the token
 * stays here and the controller is marked "pair it again". So is one whose address answers with
 * another serial number: its driver stops and leaves the hub, as a changed Hue certificate does.
 */
export function createNanoleafSupport(options: {
  hub: LightsHub;
  log: Logger;
  store: StateFile;
  mdns: boolean;
  /** The mDNS search (tests pass recorded answers): `discoverNanoleafMdns` by default. */
  findControllers?: () => Promise<NanoleafCandidate[]>;
  /** Pairing tuning (tests). */
  pairingTimeoutMs?: number;
  pollMs?: number;
}): NanoleafSupport {
  const { hub, log } = options;
  const ctx = createNanoleafContext({ hub, log, store: options.store });
  const { candidates, drivers } = ctx;
  /** The demo's controllers are made anew with each start of the demo server: pair again. */
  const pairAgainInDemo = (device: StoredNanoleaf) =>
    void hub.remove(keyOf(device)).then(async () => {
      if (ctx.demoServer) await support.pair(addressText(device));
    });

  const drive = async (device: StoredNanoleaf) => {
    const driver = createNanoleafDriver({
      address: { host: device.host, port: device.port },
      token: device.token,
      known: { id: device.id, name: device.name ?? 'Nanoleaf' },
      onLog: (message) => log.info(message),
    });
    driver.subscribe((event) => {
      if (event.type !== 'disconnect' || drivers.get(device.id) !== driver) return;
      if (event.error.message === NANOLEAF_SERIAL_CHANGED)
        return void stopReplaced(ctx, device, pairAgainInDemo);
      if (event.error.message !== NANOLEAF_TOKEN_REVOKED) return;
      forgetDevice(ctx, device);
      ctx.pairing = `${device.name ?? 'Nanoleaf'}: ${NANOLEAF_TOKEN_REVOKED}`;
      pairAgainInDemo(device);
    });
    drivers.set(device.id, driver);
    await hub.add('nanoleaf', keyOf(device), asLanDriver(driver));
  };
  const offer = (address: NanoleafAddress, name: string | null, found: Found) =>
    addCandidate(ctx, drive, { address, name, found });

  const support: NanoleafSupport = {
    async start(extra, demo) {
      ctx.demoServer = demo;
      for (const device of storedNanoleaf(ctx)) {
        try {
          await drive(device);
        } catch (error) {
          log.warn(
            `Nanoleaf ${device.name ?? device.host}: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
      }
      for (const address of extra) await offer(address, null, BY_USER);
      await support.discover();
      if (demo) for (const [text] of candidates) await support.pair(text);
    },
    async discover() {
      if (!options.mdns) return;
      try {
        const search = options.findControllers ?? discoverNanoleafMdns;
        for (const found of await search())
          await offer(found, found.name, { from: 'mdns', deviceId: found.deviceId });
      } catch (error) {
        log.warn(`Nanoleaf search: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    pair: (text) => pairController(ctx, drive, text, options),
    forget: (id) => forgetPaired(ctx, id),
    view: () => describeNanoleaf(ctx),
    async close() {
      candidates.clear();
      drivers.clear();
    },
  };
  return support;
}

/** As a changed Hue certificate: off the hub, kept paired, and the status page asks to pair again. */
function stopReplaced(
  ctx: NanoleafContext,
  device: StoredNanoleaf,
  pairAgainInDemo: (device: StoredNanoleaf) => void,
): void {
  if (ctx.replaced.has(device.id)) return;
  ctx.replaced.add(device.id);
  ctx.pairing = nanoleafReplaced(device.name ?? 'Nanoleaf', addressText(device));
  ctx.log.warn(`Nanoleaf: ${ctx.pairing}`);
  pairAgainInDemo(device);
}

/** Unpairs a controller by its id: revoked there when it is the one answering at its address. */
async function forgetPaired(ctx: NanoleafContext, id: string): Promise<{ name: string } | null> {
  const device = storedNanoleaf(ctx).find((d) => d.id === id);
  if (!device) return null;
  // Another controller answers at its address: the token is not sent there to be revoked.
  const elsewhere = ctx.replaced.has(device.id);
  // Off the driver list first: the controller's 401 after the revoke must not read as "revoked".
  forgetDevice(ctx, device);
  await ctx.hub.remove(keyOf(device));
  const name = device.name ?? 'Nanoleaf';
  try {
    if (!elsewhere) await revokeNanoleafToken({ host: device.host, port: device.port }, device.token);
  } catch (error) {
    // Unreachable now: the token is gone from here all the same, and a reset clears it there.
    ctx.log.warn(`Nanoleaf ${name}: ${error instanceof Error ? error.message : String(error)}`);
  }
  ctx.log.info(`Nanoleaf: forgot ${name}`);
  return { name };
}
