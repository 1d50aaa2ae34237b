import {
  DEMO_HUE_APPLICATION_KEY,
  DEMO_LIFX_TOKEN,
  startHueSim,
  startLifxSim,
  startLocalHueBridge,
  startNanoleafSim,
  startVirtualGoveeDevices,
  startVirtualLifxBulbs,
} from '@flaglight/sims';
import { createHueDriver } from '../src/hue/driver.js';
import { createHueBridgeTransport } from '../src/hue/transports.js';
import { createGoveeLanDriver } from '../src/lan/govee/driver.js';
import { pairHueBridge } from '../src/lan/hue/bridge.js';
import { createHueLocalDriver } from '../src/lan/hue/driver.js';
import { createLifxLanDriver } from '../src/lan/lifx/driver.js';
import { createNanoleafDriver } from '../src/lan/nanoleaf/driver.js';
import { pairNanoleaf } from '../src/lan/nanoleaf/pairing.js';
import { createLifxCloudDriver } from '../src/lifx/driver.js';
import { createScreenDriver, SCREEN_DEVICE_ID } from '../src/screen/driver.js';
import { lookFromHex, type DriverHarness, type InjectedFault } from './driver-contract.js';
import { homeAssistantHarness } from './home-assistant-harness.js';
import { wledHarness } from './wled-harness.js';

// One harness per brand: its real simulator on 127.0.0.1 (no broadcast, no multicast), the
// driver built the way the product builds it, on the contract's fast clock. A new brand (the
// Govee cloud driver, provider `govee`) adds one harness here and one line to DRIVER_HARNESSES.

const LOOPBACK = '127.0.0.1';
const U16 = 65_535;

/**
 * Counts the simulator's log entries matching `isCommand` per light. The LAN simulators keep only
 * their last 1000 entries, so the count is kept up to date every 20 ms instead of read at the end.
 */
function createTally<T extends object>(
  entries: () => Iterable<[string, T]>,
  isCommand: (entry: T) => boolean,
) {
  const seen = new WeakSet<T>();
  const totals = new Map<string, number>();
  const poll = () => {
    for (const [id, entry] of entries()) {
      if (seen.has(entry)) continue;
      seen.add(entry);
      if (isCommand(entry)) totals.set(id, (totals.get(id) ?? 0) + 1);
    }
  };
  const timer = setInterval(poll, 20);
  return {
    count: (id: string) => {
      poll();
      return totals.get(id) ?? 0;
    },
    stop: () => clearInterval(timer),
  };
}

/** A chance source that answers "lose this one" once when armed, and "keep it" otherwise. */
function createLoser() {
  let armed = false;
  let lost = 0;
  return {
    random: () => {
      if (!armed) return 0.99;
      armed = false;
      lost += 1;
      return 0;
    },
    arm: (): InjectedFault => {
      const before = lost;
      armed = true;
      return { fired: () => lost > before };
    },
  };
}

/**
 * LIFX cloud (`lifx`): a look on many bulbs is one multi-id request, a strobe one pulse. Bound 4:
 * a caution flag is a pulse and a state (2); the fault is one 503, retried after the back-off.
 */
export const lifxCloudHarness: DriverHarness = {
  name: 'lifx (cloud)',
  tolerance: { hueDeg: 3, brightness: 0.02 },
  maxCommandsPerLightPerFlag: 4,
  async start(timers) {
    const sim = await startLifxSim({ bulbCount: 3, now: timers.now });
    const driver = createLifxCloudDriver({ baseUrl: `${sim.url}/v1`, token: DEMO_LIFX_TOKEN, timers });
    await driver.connect();
    const ids = sim.control.bulbs().map((b) => b.id);
    const writes = () =>
      sim.control.requests().filter((r) => r.method !== 'GET' && r.path.startsWith('/v1/lights'));
    return {
      driver,
      pending: () => driver.pendingCount(),
      ids,
      observe(id) {
        const bulb = sim.control.bulb(id)!;
        return {
          on: bulb.on,
          hue: bulb.color.hue,
          saturation: bulb.color.saturation,
          brightness: bulb.brightness,
        };
      },
      commands: (id) => writes().filter((r) => `${r.path} ${JSON.stringify(r.body)}`.includes(id)).length,
      faultOnce() {
        const before = sim.control.requests().length;
        sim.control.failNext({ status: 503, times: 1 });
        return {
          fired: () =>
            sim.control
              .requests()
              .slice(before)
              .some((r) => r.status === 503),
        };
      },
      clearFaults: () => undefined,
      async close() {
        driver.disconnect();
        await sim.close();
      },
    };
  },
};

/**
 * Hue (`hue`) over CLIP v2 against the Hue simulator: the same driver the web app runs through
 * the app server's remote transport (that transport needs the server, so it is tested there).
 * No native strobe: the player expands flashes at the bridge pace (500 ms halves on 4 lights),
 * so a red flag is 2 flashes + the solid look; chequered up to 7 looks. Bound 10. Gamut C moves
 * hues: green shows at ~136°, blue at ~253°.
 */
export const hueHarness: DriverHarness = {
  name: 'hue (CLIP v2)',
  tolerance: { hueDeg: 16, brightness: 0.02 },
  maxCommandsPerLightPerFlag: 10,
  async start(timers) {
    const sim = await startHueSim({ now: timers.now });
    const transport = createHueBridgeTransport({
      baseUrl: `${sim.url}/clip/v2/resource`,
      applicationKey: DEMO_HUE_APPLICATION_KEY,
    });
    const driver = createHueDriver({ transport, timers });
    await driver.connect();
    const ids = sim.control.lights().map((l) => l.id);
    return {
      driver,
      pending: () => driver.pendingCount(),
      ids,
      observe(id) {
        const light = sim.control.light(id)!;
        return { ...lookFromHex(light.hex), on: light.on, brightness: light.brightness };
      },
      commands: (id) =>
        sim.control.requests().filter((r) => r.method === 'PUT' && r.path.endsWith(`/light/${id}`)).length,
      faultOnce() {
        const before = sim.control.requests().length;
        sim.control.fault({ kind: 'server-error', times: 1, path: '/clip/v2/resource/light/' });
        return {
          fired: () =>
            sim.control
              .requests()
              .slice(before)
              .some((r) => r.status === 503),
        };
      },
      clearFaults: () => sim.control.clearFaults(),
      async close() {
        driver.disconnect();
        await sim.close();
      },
    };
  },
};

/** The page as a light (`screen`): no simulator, the driver's own state is what shows. */
export const screenHarness: DriverHarness = {
  name: 'screen',
  tolerance: { hueDeg: 1, brightness: 0.001 },
  // Strobes expanded at full speed: chequered is 30 flashes + the solid look.
  maxCommandsPerLightPerFlag: 32,
  unsupported: {
    recovery: 'the screen has no simulator and nothing that can fail',
    cancelPending: 'the screen applies every look at once, nothing is ever queued',
  },
  start(timers) {
    const driver = createScreenDriver({ timers });
    let changes = 0;
    const unsubscribe = driver.subscribeState(() => (changes += 1));
    return Promise.resolve({
      driver,
      ids: [SCREEN_DEVICE_ID],
      observe() {
        const state = driver.getState();
        return {
          on: state.on,
          hue: state.color?.hue ?? 0,
          saturation: state.color?.saturation ?? 0,
          brightness: state.brightness,
        };
      },
      commands: () => changes,
      clearFaults: () => undefined,
      close() {
        unsubscribe();
        return Promise.resolve();
      },
    });
  },
};

/**
 * LIFX on the LAN (`lifx_lan`): a look is SetColor + SetPower, a strobe adds one
 * SetWaveformOptional. Bound 8: a caution flag is 5 acknowledged writes; a lost datagram is
 * resent with the same bytes.
 */
export const lifxLanHarness: DriverHarness = {
  name: 'lifx_lan',
  tolerance: { hueDeg: 1, brightness: 0.01 },
  maxCommandsPerLightPerFlag: 8,
  async start(timers) {
    const loser = createLoser();
    const bulbs = await startVirtualLifxBulbs({ count: 3, now: timers.now, random: loser.random });
    const driver = createLifxLanDriver({
      targets: [{ host: bulbs.host, port: bulbs.discoveryPort }],
      bindAddress: LOOPBACK,
      rescanIntervalMs: 0,
      timers,
    });
    // "Devices found": on a loaded host the bulbs once answered after the first window (50 ms of
    // the wall at 20×) and the check found none; a scan is made again until all three answer.
    await driver.discover();
    for (let scans = 1; driver.devices().length < 3 && scans < 10; scans += 1) await driver.discover();
    const macs = new Map(bulbs.list().map((b) => [b.id.replace(/:/g, ''), b.id]));
    const tally = createTally(
      () =>
        [...macs].flatMap(([id, mac]) =>
          bulbs.log(mac).map((entry) => [id, entry] as [string, typeof entry]),
        ),
      (entry) => entry.via === 'bulb' && /^Light(Set|SetPower)/.test(entry.type),
    );
    return {
      driver,
      pending: () => driver.pendingCount(),
      ids: [...macs.keys()],
      observe(id) {
        const bulb = bulbs.get(macs.get(id)!)!;
        return {
          on: bulb.on,
          hue: (bulb.color.hue / U16) * 360,
          saturation: bulb.color.saturation / U16,
          brightness: bulb.color.brightness / U16,
        };
      },
      commands: tally.count,
      faultOnce() {
        bulbs.setFault(undefined, { dropPercent: 50 });
        return loser.arm();
      },
      clearFaults: () => bulbs.setFault(undefined, { dropPercent: 0 }),
      async close() {
        tally.stop();
        await driver.close();
        await bulbs.close();
      },
    };
  },
};

/**
 * Hue bridge on the LAN (`hue_local`): a strobe is one `signaling` command on lights that list it
 * and paced looks on the one that does not: 150 ms halves on one light, so chequered (3 s) is up
 * to 20 flashes + the solid look there. Bound 24. Gamut C moves hues as for `hue`.
 */
export const hueLocalHarness: DriverHarness = {
  name: 'hue_local',
  tolerance: { hueDeg: 16, brightness: 0.02 },
  maxCommandsPerLightPerFlag: 24,
  async start(timers) {
    const bridge = await startLocalHueBridge({ now: timers.now });
    bridge.pressLinkButton();
    const pairing = await pairHueBridge(bridge.url, { deviceType: 'flaglight#contract' });
    const driver = createHueLocalDriver({ url: bridge.url, ...pairing, timers });
    const ids = (await driver.connect()).map((l) => l.id);
    const tally = createTally(
      () => bridge.commands().map((c) => [c.lightId, c] as [string, typeof c]),
      () => true,
    );
    return {
      driver,
      pending: () => driver.pendingCount(),
      ids,
      observe(id) {
        const light = bridge.view().lights.find((l) => l.id === id)!;
        return { ...lookFromHex(light.hex), on: light.on, brightness: light.brightness / 100 };
      },
      commands: tally.count,
      faultOnce() {
        const since = performance.now();
        bridge.failNextLightCommands(1);
        return { fired: () => bridge.commands().some((c) => c.status === 503 && c.monotonicMs >= since) };
      },
      clearFaults: () => bridge.failNextLightCommands(0),
      async close() {
        tally.stop();
        await driver.close();
        await bridge.close();
      },
    };
  },
};

/**
 * Govee on the LAN (`govee_lan`): UDP without acknowledgement, so a look is `turn` + `brightness`
 * + `colorwc`, the last one again, then a `devStatus` read to confirm (every datagram the device
 * received is counted, reads included): a steady flag (two looks) is 10. No native strobe: flashes
 * at 200 ms halves, so chequered is 15 on/off pairs, 40 datagrams measured at real speed. Bound 60.
 */
export const goveeLanHarness: DriverHarness = {
  name: 'govee_lan',
  tolerance: { hueDeg: 2, brightness: 0.01 },
  maxCommandsPerLightPerFlag: 60,
  async start(timers) {
    const loser = createLoser();
    const sim = await startVirtualGoveeDevices({ count: 3, now: timers.now, random: loser.random });
    const driver = createGoveeLanDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      commandPortFromReply: true,
      bindAddress: LOOPBACK,
      rescanIntervalMs: 0,
      timers,
    });
    await driver.discover();
    const ids = sim.list().map((d) => d.id);
    return {
      driver,
      ids,
      observe(id) {
        const device = sim.get(id)!;
        const { r, g, b } = device.color;
        const hex = `#${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;
        const look = device.kelvin > 0 ? { hue: 0, saturation: 0 } : lookFromHex(hex);
        return {
          hue: look.hue,
          saturation: look.saturation,
          on: device.on,
          brightness: device.brightness / 100,
        };
      },
      commands: (id) => sim.get(id)!.received,
      faultOnce() {
        sim.setFault(undefined, { lossPercent: 50 });
        return loser.arm();
      },
      clearFaults: () => sim.setFault(undefined, { lossPercent: 0 }),
      async close() {
        await driver.close();
        await sim.close();
      },
    };
  },
};

/**
 * Nanoleaf (`nanoleaf`): one controller, one device; a look is one `PUT /state`, a strobe one
 * looping `custom` effect. Observed as its panels (all must show the same). Bound 4: a caution
 * flag is an effect and a state; a dropped connection is tried once more.
 */
export const nanoleafHarness: DriverHarness = {
  name: 'nanoleaf',
  tolerance: { hueDeg: 2, brightness: 0.01 },
  maxCommandsPerLightPerFlag: 4,
  async start(timers) {
    const loser = createLoser();
    const device = await startNanoleafSim({
      now: timers.now,
      random: loser.random,
      serialNo: 'S1924CONTRACT',
    });
    device.holdButton();
    const address = { host: device.host, port: device.port };
    const token = await pairNanoleaf(address, { pollMs: 20 });
    const driver = createNanoleafDriver({ address, token, timers });
    const ids = (await driver.connect()).map((d) => d.id);
    return {
      driver,
      pending: () => driver.pendingCount(),
      ids,
      observe() {
        const view = device.view();
        const shown = new Set(view.panels.map((p) => p.hex));
        if (shown.size !== 1) return { on: false, hue: 0, saturation: 0, brightness: 0 };
        return lookFromHex([...shown][0]!, view.on);
      },
      commands: () => {
        const { state, effects } = device.view().requests;
        return state + effects;
      },
      faultOnce() {
        device.setFault({ dropPercent: 50 });
        return loser.arm();
      },
      clearFaults: () => device.setFault({ dropPercent: 0 }),
      async close() {
        await driver.close();
        await device.close();
      },
    };
  },
};

/** Every brand the contract suite runs over. */
export const DRIVER_HARNESSES: readonly DriverHarness[] = [
  lifxCloudHarness,
  hueHarness,
  screenHarness,
  lifxLanHarness,
  hueLocalHarness,
  goveeLanHarness,
  nanoleafHarness,
  wledHarness,
  homeAssistantHarness,
];
