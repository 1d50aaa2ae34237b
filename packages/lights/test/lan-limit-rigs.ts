import {
  HOME_ASSISTANT_DEMO_LIGHTS,
  HOME_ASSISTANT_DEMO_TOKEN,
  startHomeAssistantSim,
  startLocalHueBridge,
  startNanoleafSim,
  startVirtualGoveeDevices,
  startVirtualLifxBulbs,
  startWledSim,
} from '@flaglight/sims';
import type { LightDriver } from '../src/driver.js';
import { GOVEE_LAN_MIN_GAP_MS } from '../src/lan/govee/driver-options.js';
import { createGoveeLanDriver } from '../src/lan/govee/driver.js';
import { HOME_ASSISTANT_PACE_MS } from '../src/lan/home-assistant/driver-types.js';
import { createHomeAssistantDriver } from '../src/lan/home-assistant/driver.js';
import { pairHueBridge } from '../src/lan/hue/bridge.js';
import { createHueLocalDriver } from '../src/lan/hue/driver.js';
import { createLifxLanDriver } from '../src/lan/lifx/driver.js';
import { NANOLEAF_PACED_HALF_PERIOD_MS } from '../src/lan/nanoleaf/driver-types.js';
import { createNanoleafDriver } from '../src/lan/nanoleaf/driver.js';
import { pairNanoleaf } from '../src/lan/nanoleaf/pairing.js';
import { WLED_PACED_HALF_PERIOD_MS } from '../src/lan/wled/driver-types.js';
import { createWledDriver } from '../src/lan/wled/driver.js';
import type { Timers } from '../src/timers.js';
import { lookFromHex, type ObservedLook } from './driver-contract.js';

// Each LAN brand as the look-set property test drives it: its simulator on 127.0.0.1 on the test's
// clock, the driver as the companion builds it, and what reached the simulator with its time.

const LOOPBACK = '127.0.0.1';
const U16 = 65_535;

export interface LanLimitRun {
  driver: LightDriver;
  ids: readonly string[];
  observe(id: string): ObservedLook;
  close(): Promise<void>;
}

export interface LanLimitRig {
  name: string;
  start(timers: Timers): Promise<LanLimitRun>;
  limit: {
    /** The brand's limit in words, for the test's name and its failure. */
    text: string;
    /** At most this many in any second of each group. */
    perSecond: number;
    /** The times (the simulator's clock) of what reached it since `since`, grouped as the limit counts them. */
    groups(run: LanLimitRun, since: number): number[][];
    /** Gaps between consecutive commands that must each be at least `minGapMs`. */
    gaps?(run: LanLimitRun, since: number): number[];
    minGapMs?: number;
  };
  /** Periods of the flashes the device plays by itself (a LIFX waveform), sent since `since`. */
  nativeFlashPeriods?(run: LanLimitRun, since: number): number[];
  /**
   * Lights that cannot show a colour (white-only, dimmer-only), as the brand has them: what each was
   * sent since `since` that is not how it shows a look today, one line per request (none: all well).
   */
  unshowable?: {
    text: string;
    problems(run: LanLimitRun, since: number): string[];
  };
}

/** Runs whose simulator logs the rig reads: the run plus what it needs. */
type Extra<T> = LanLimitRun & T;

/** A flash a device plays at its own pace is counted as SPEC's fastest: 10 a second. */
const FAST_FLASH_PERIOD_MS = 100;

/** LIFX LAN: at most 20 messages a second to one bulb (every message, reads included). */
const lifxLan: LanLimitRig = {
  name: 'lifx_lan',
  async start(timers) {
    const bulbs = await startVirtualLifxBulbs({ count: 2, now: timers.now });
    const driver = createLifxLanDriver({
      targets: [{ host: bulbs.host, port: bulbs.discoveryPort }],
      bindAddress: LOOPBACK,
      rescanIntervalMs: 0,
      timers,
    });
    await driver.discover();
    const macs = new Map(bulbs.list().map((b) => [b.id.replace(/:/g, ''), b.id]));
    const run: Extra<{ log(id: string): ReturnType<typeof bulbs.log> }> = {
      driver,
      ids: [...macs.keys()],
      log: (id) => bulbs.log(macs.get(id)!).filter((entry) => entry.via === 'bulb'),
      observe(id) {
        const bulb = bulbs.get(macs.get(id)!)!;
        return {
          on: bulb.on,
          hue: (bulb.color.hue / U16) * 360,
          saturation: bulb.color.saturation / U16,
          brightness: bulb.color.brightness / U16,
        };
      },
      async close() {
        await driver.close();
        await bulbs.close();
      },
    };
    return run;
  },
  limit: {
    text: 'at most 20 messages a second to one bulb',
    perSecond: 20,
    groups: (run, since) =>
      run.ids.map((id) =>
        (run as Extra<{ log(id: string): { at: number }[] }>)
          .log(id)
          .filter((e) => e.at >= since)
          .map((e) => e.at),
      ),
  },
  nativeFlashPeriods: (run, since) =>
    run.ids.flatMap((id) =>
      (run as Extra<{ log(id: string): { at: number; type: string; message?: unknown }[] }>)
        .log(id)
        .filter((e) => e.at >= since && e.type.startsWith('LightSetWaveform'))
        .map((e) => (e.message as { periodMs: number }).periodMs),
    ),
};

/** Hue bridge on the LAN: about 10 light commands a second for the whole bridge. */
const hueLocal: LanLimitRig = {
  name: 'hue_local',
  async start(timers) {
    const bridge = await startLocalHueBridge({ now: timers.now });
    bridge.pressLinkButton();
    const pairing = await pairHueBridge(bridge.url, { deviceType: 'flaglight#looks' });
    const driver = createHueLocalDriver({ url: bridge.url, ...pairing, timers });
    const ids = (await driver.connect()).map((l) => l.id);
    const run: Extra<{ commands(): { at: number; body: unknown }[] }> = {
      driver,
      ids,
      commands: () => bridge.commands(),
      observe(id) {
        const light = bridge.view().lights.find((l) => l.id === id)!;
        return { ...lookFromHex(light.hex), on: light.on, brightness: light.brightness / 100 };
      },
      async close() {
        await driver.close();
        await bridge.close();
      },
    };
    return run;
  },
  limit: {
    text: 'at most 10 light commands a second per bridge',
    perSecond: 10,
    groups: (run, since) => [
      (run as Extra<{ commands(): { at: number }[] }>)
        .commands()
        .filter((c) => c.at >= since)
        .map((c) => c.at),
    ],
  },
  // `signaling` flashes at the bridge's own pace, which no command can slow: taken as a fast flash.
  nativeFlashPeriods: (run, since) =>
    (run as Extra<{ commands(): { at: number; body: unknown }[] }>)
      .commands()
      .filter((c) => c.at >= since && typeof c.body === 'object' && c.body !== null && 'signaling' in c.body)
      .map(() => FAST_FLASH_PERIOD_MS),
};

/** Govee LAN: one datagram per 40 ms to a device (25 a second). */
const goveeLan: LanLimitRig = {
  name: 'govee_lan',
  async start(timers) {
    const sim = await startVirtualGoveeDevices({ count: 2, now: timers.now });
    const driver = createGoveeLanDriver({
      targets: [{ host: sim.host, port: sim.scanPort }],
      ports: { listen: sim.replyPort },
      commandPortFromReply: true,
      bindAddress: LOOPBACK,
      rescanIntervalMs: 0,
      timers,
    });
    await driver.discover();
    const run: Extra<{ sent(id: string, since: number): number[] }> = {
      driver,
      ids: sim.list().map((d) => d.id),
      sent: (id, since) =>
        sim
          .log(id)
          .filter((e) => e.via === 'command' && e.at >= since)
          .map((e) => e.at),
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
      async close() {
        await driver.close();
        await sim.close();
      },
    };
    return run;
  },
  limit: {
    text: `at most ${1000 / GOVEE_LAN_MIN_GAP_MS} datagrams a second to one device`,
    perSecond: 1000 / GOVEE_LAN_MIN_GAP_MS,
    groups: (run, since) =>
      run.ids.map((id) => (run as Extra<{ sent(id: string, since: number): number[] }>).sent(id, since)),
  },
};

interface HomeAssistantLog {
  calls(id: string, since: number): number[];
  bodies(since: number): unknown[];
  posts(since: number): { path: string; entityIds: string[]; body: unknown }[];
}

/** The demo's lights that cannot show a colour: a white-only ceiling light and a dimmer. */
const HA_WHITE_ONLY = HOME_ASSISTANT_DEMO_LIGHTS.find((l) => l.entityId === 'light.hallway_ceiling')!;
const HA_DIMMER_ONLY = HOME_ASSISTANT_DEMO_LIGHTS.find((l) => l.entityId === 'light.garage_dimmer')!;
const HA_COLOUR_KEYS = ['rgb_color', 'xy_color', 'hs_color', 'rgbw_color', 'rgbww_color'];

/**
 * How Home Assistant's lights without a colour show a look today (`homeAssistantCall`): a white-only
 * light the warm or the cool end of its range for a colour, or a neutral 4000 K for white, with its
 * brightness; a dimmer only its brightness; neither is ever sent a colour, and off is `turn_off`.
 */
function homeAssistantUnshowable(run: LanLimitRun, since: number): string[] {
  const problems: string[] = [];
  const whites = new Set([HA_WHITE_ONLY.minKelvin ?? 2000, 4000, HA_WHITE_ONLY.maxKelvin ?? 6535]);
  for (const post of (run as Extra<HomeAssistantLog>).posts(since)) {
    const body = (post.body ?? {}) as Record<string, unknown>;
    const on = post.path.endsWith('/turn_on');
    const say = (what: string) =>
      problems.push(`${post.entityIds.join(',')}: ${what} in ${JSON.stringify(body)}`);
    for (const id of post.entityIds) {
      if (id !== HA_WHITE_ONLY.entityId && id !== HA_DIMMER_ONLY.entityId) continue;
      if (HA_COLOUR_KEYS.some((key) => key in body)) say('a colour');
      if (!on) continue;
      const brightness = body.brightness;
      if (typeof brightness !== 'number' || brightness < 1 || brightness > 255) say('no brightness');
      const kelvin = body.color_temp_kelvin;
      if (id === HA_WHITE_ONLY.entityId && !(typeof kelvin === 'number' && whites.has(kelvin)))
        say('not a white of its range');
      if (id === HA_DIMMER_ONLY.entityId && kelvin !== undefined) say('a colour temperature');
    }
  }
  return problems;
}

/** Home Assistant: one call per entity per HOME_ASSISTANT_PACE_MS; a white-only light among them. */
const homeAssistant: LanLimitRig = {
  name: 'home_assistant',
  async start(timers) {
    const sim = await startHomeAssistantSim({ now: timers.now, lights: HOME_ASSISTANT_DEMO_LIGHTS });
    const driver = createHomeAssistantDriver({
      url: sim.url,
      token: HOME_ASSISTANT_DEMO_TOKEN,
      timers,
      refreshMs: 0,
    });
    const ids = (await driver.connect()).map((d) => d.id);
    const run: Extra<HomeAssistantLog> = {
      driver,
      ids,
      posts: (since) => sim.requests().filter((r) => r.method === 'POST' && r.at >= since),
      bodies: (since) =>
        sim
          .requests()
          .filter((r) => r.method === 'POST' && r.at >= since)
          .map((r) => r.body),
      calls: (id, since) =>
        sim
          .requests()
          .filter((r) => r.method === 'POST' && r.at >= since && r.entityIds.includes(id))
          .map((r) => r.at),
      observe(id) {
        const light = sim.light(id)!;
        return lookFromHex(light.hex, light.state === 'on');
      },
      async close() {
        await driver.close();
        await sim.close();
      },
    };
    return run;
  },
  limit: {
    text: `one call per entity every ${HOME_ASSISTANT_PACE_MS} ms`,
    perSecond: Math.ceil(1000 / HOME_ASSISTANT_PACE_MS),
    groups: (run, since) =>
      run.ids.map((id) => (run as Extra<{ calls(id: string, since: number): number[] }>).calls(id, since)),
    // As Home Assistant sees them: the driver paces from the answer to the call before, so however
    // long a call takes to arrive, the next one for its entity reaches HA a whole pace later.
    gaps: (run, since) =>
      run.ids.flatMap((id) =>
        (run as Extra<{ calls(id: string, since: number): number[] }>)
          .calls(id, since)
          .map((at, i, all) => at - (all[i - 1] ?? -Infinity))
          .slice(1),
      ),
    minGapMs: HOME_ASSISTANT_PACE_MS,
  },
  unshowable: {
    text: 'a colour on the white-only light shows a white of its range, on the dimmer its brightness',
    problems: homeAssistantUnshowable,
  },
  // `flash: short` blinks at the device's own pace: taken as a fast flash.
  nativeFlashPeriods: (run, since) =>
    (run as Extra<{ bodies(since: number): unknown[] }>)
      .bodies(since)
      .filter((body) => typeof body === 'object' && body !== null && 'flash' in body)
      .map(() => FAST_FLASH_PERIOD_MS),
};

/** Per device, the writes of a paced flash at most (one every 250 ms) plus the look that ends a flag's effect. */
const PACED_WRITES_PER_SECOND = (halfPeriodMs: number) => 1000 / halfPeriodMs + 1;

/** Nanoleaf: its writes (`PUT /state`, `PUT /effects`). */
const nanoleaf: LanLimitRig = {
  name: 'nanoleaf',
  async start(timers) {
    const device = await startNanoleafSim({ now: timers.now, serialNo: 'S1924LOOKS' });
    device.holdButton();
    const address = { host: device.host, port: device.port };
    const token = await pairNanoleaf(address, { pollMs: 20 });
    const driver = createNanoleafDriver({ address, token, timers });
    const ids = (await driver.connect()).map((d) => d.id);
    const run: Extra<{ writes(since: number): number[]; effects(since: number): number }> = {
      driver,
      ids,
      effects: (since) =>
        device.requests().filter((r) => r.method === 'PUT' && r.at >= since && r.path.endsWith('/effects'))
          .length,
      writes: (since) =>
        device
          .requests()
          .filter((r) => r.method === 'PUT' && r.at >= since)
          .map((r) => r.at),
      observe() {
        const view = device.view();
        const shown = new Set(view.panels.map((p) => p.hex));
        if (shown.size !== 1) return { on: true, hue: 0, saturation: 0, brightness: -1 };
        return lookFromHex([...shown][0]!, view.on);
      },
      async close() {
        await driver.close();
        await device.close();
      },
    };
    return run;
  },
  limit: {
    text: `at most ${PACED_WRITES_PER_SECOND(NANOLEAF_PACED_HALF_PERIOD_MS)} writes a second`,
    perSecond: PACED_WRITES_PER_SECOND(NANOLEAF_PACED_HALF_PERIOD_MS),
    groups: (run, since) => [(run as Extra<{ writes(since: number): number[] }>).writes(since)],
  },
  // A looping effect flashes by itself: taken as a fast flash.
  nativeFlashPeriods: (run, since) =>
    Array.from(
      { length: (run as Extra<{ effects(since: number): number }>).effects(since) },
      () => FAST_FLASH_PERIOD_MS,
    ),
};

/** WLED: its writes (`POST /json/state`) per device. */
const wled: LanLimitRig = {
  name: 'wled',
  async start(timers) {
    const devices = [
      await startWledSim({ now: timers.now, name: 'Looks strip', mac: 'a0b765c00011' }),
      await startWledSim({ now: timers.now, name: 'Looks RGBW', mac: 'a0b765c00012', white: true }),
    ];
    const driver = createWledDriver({
      addresses: devices.map((d) => ({ host: d.host, port: d.port })),
      timers,
    });
    const ids = (await driver.connect()).map((d) => d.id);
    const device = (id: string) => devices.find((d) => d.id === id)!;
    const run: Extra<{ writes(id: string, since: number): number[] }> = {
      driver,
      ids,
      writes: (id, since) =>
        device(id)
          .requests()
          .filter((r) => r.method === 'POST' && r.at >= since)
          .map((r) => r.at),
      observe(id) {
        const view = device(id).view();
        return lookFromHex(view.hex, view.state.on);
      },
      async close() {
        await driver.close();
        await Promise.all(devices.map((d) => d.close()));
      },
    };
    return run;
  },
  limit: {
    text: `at most ${PACED_WRITES_PER_SECOND(WLED_PACED_HALF_PERIOD_MS)} writes a second to one device`,
    perSecond: PACED_WRITES_PER_SECOND(WLED_PACED_HALF_PERIOD_MS),
    groups: (run, since) =>
      run.ids.map((id) => (run as Extra<{ writes(id: string, since: number): number[] }>).writes(id, since)),
  },
};

export const LAN_LIMIT_RIGS: readonly LanLimitRig[] = [
  lifxLan,
  hueLocal,
  goveeLan,
  homeAssistant,
  nanoleaf,
  wled,
];
