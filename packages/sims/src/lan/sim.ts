import { hsbkToColor } from '@flaglight/core';
import { type FastifyInstance } from 'fastify';
import { hsbkToHex } from '../lifx/colors.js';
import { sendLightsPage } from '../lights-page/page.js';
import {
  GOVEE_LAN_DEMO_DEVICE_COUNT,
  startVirtualGoveeDevices,
  type VirtualGoveeDevices,
  type VirtualGoveeDeviceView,
} from './govee-lan.js';
import { homeAssistantSwatches, registerHomeAssistantControl } from './home-assistant-routes.js';
import { type HomeAssistantSim, type HomeAssistantSimView, startHomeAssistantSim } from './home-assistant.js';
import { type LocalHueBridge, type LocalHueBridgeView, startLocalHueBridge } from './hue-bridge.js';
import {
  LIFX_LAN_DEMO_BULB_COUNT,
  startVirtualLifxBulbs,
  type VirtualLifxBulbs,
  type VirtualLifxBulbView,
} from './lifx-bulbs.js';
import { type NanoleafSimDevice, type NanoleafSimView, startNanoleafSim } from './nanoleaf.js';
import {
  registerWledControl,
  startWledDemoDevices,
  WLED_DEMO_DEVICES,
  wledSwatches,
} from './wled-control.js';
import type { WledSimDevice, WledSimView } from './wled.js';

/** The demo's Nanoleaf controllers: fixed serials, so a companion's stored tokens name the same ones. */
export const NANOLEAF_DEMO_DEVICES = [
  { name: 'Shapes Living room', serialNo: 'S19240A1001', model: 'NL42', panelCount: 7 },
  { name: 'Canvas Office', serialNo: 'S19240A1002', model: 'NL29', panelCount: 9 },
  { name: 'Lines Desk', serialNo: 'S19240A1003', model: 'NL59', panelCount: 6 },
] as const;

export interface LanSimOptions {
  /** UDP port answering LIFX discovery for every bulb (0 = ephemeral). */
  lifxPort?: number;
  lifxCount?: number;
  /** HTTPS port of the local Hue bridge (0 = ephemeral). */
  hueBridgePort?: number;
  /** Govee: the shared scan port (0 = ephemeral) and the reply port the companion listens on (0 = a free one). */
  goveeScanPort?: number;
  goveeReplyPort?: number;
  goveeCount?: number;
  /** Nanoleaf controllers, each on its own ephemeral HTTP port (default 3). */
  nanoleafCount?: number;
  /** WLED devices, each on its own ephemeral HTTP port (default 2). */
  wledCount?: number;
  now?: () => number;
}

export interface LanSimState {
  lifx: { host: string; discoveryPort: number; bulbs: VirtualLifxBulbView[] };
  hueBridge: LocalHueBridgeView;
  /**
   * Scan at host:scanPort, listen on replyPort; `commandPort` null: each device takes commands at
   * the port its scan reply came from (loopback stands in for per-device IPs).
   */
  govee: {
    host: string;
    scanPort: number;
    replyPort: number;
    commandPort: null;
    devices: VirtualGoveeDeviceView[];
  };
  nanoleaf: { devices: NanoleafSimView[] };
  /** WLED devices (`host`, `port`), which the companion's `--demo` reads. */
  wled: { devices: WledSimView[] };
  /** Home Assistant's REST API: `url` and the demo's `token`, which the companion's `--demo` reads. */
  homeAssistant: HomeAssistantSimView;
}

export interface LanSim {
  lifx: VirtualLifxBulbs;
  hueBridge: LocalHueBridge;
  govee: VirtualGoveeDevices;
  nanoleaf: NanoleafSimDevice[];
  wled: WledSimDevice[];
  homeAssistant: HomeAssistantSim;
  state(): LanSimState;
  /** `/` (live page), `/state` and `/_control/*`; mount it under a prefix (demo: /sims/lan). */
  plugin: (app: FastifyInstance) => Promise<void>;
  close(): Promise<void>;
}

type Body = Record<string, unknown>;
const asBody = (body: unknown): Body =>
  typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {};

const rgbHex = (c: { r: number; g: number; b: number }) =>
  `#${[c.r, c.g, c.b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/**
 * The LAN simulator (lan-lights.md §3, nanoleaf-govee.md §3): virtual LIFX bulbs and Govee devices
 * on UDP, a local Hue bridge on HTTPS and Nanoleaf controllers on HTTP, all on 127.0.0.1, with an
 * HTTP face for the demo page, their state and faults.
 */
export async function startLanSim(options: LanSimOptions = {}): Promise<LanSim> {
  const now = options.now ?? Date.now;
  const lifx = await startVirtualLifxBulbs({
    count: options.lifxCount ?? LIFX_LAN_DEMO_BULB_COUNT,
    discoveryPort: options.lifxPort ?? 0,
    now,
  });
  let hueBridge: LocalHueBridge;
  let govee: VirtualGoveeDevices;
  try {
    hueBridge = await startLocalHueBridge({ port: options.hueBridgePort ?? 0, now });
  } catch (error) {
    await lifx.close();
    throw error;
  }
  try {
    // The third device's scan reply leaves out `ip`, as some models do (reference §2.1).
    govee = await startVirtualGoveeDevices({
      count: options.goveeCount ?? GOVEE_LAN_DEMO_DEVICE_COUNT,
      scanPort: options.goveeScanPort ?? 0,
      replyPort: options.goveeReplyPort ?? 0,
      omitIp: [2],
      now,
    });
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close()]);
    throw error;
  }
  const nanoleaf: NanoleafSimDevice[] = [];
  try {
    const count = options.nanoleafCount ?? NANOLEAF_DEMO_DEVICES.length;
    for (let k = 0; k < count; k += 1) {
      const demo = NANOLEAF_DEMO_DEVICES[k % NANOLEAF_DEMO_DEVICES.length]!;
      const serialNo =
        k < NANOLEAF_DEMO_DEVICES.length ? demo.serialNo : `S19240A2${String(k).padStart(3, '0')}`;
      const name = k < NANOLEAF_DEMO_DEVICES.length ? demo.name : `${demo.name} ${k + 1}`;
      nanoleaf.push(await startNanoleafSim({ ...demo, name, serialNo, now }));
    }
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    throw error;
  }
  let homeAssistant: HomeAssistantSim;
  try {
    homeAssistant = await startHomeAssistantSim({ now });
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    throw error;
  }
  let wled: WledSimDevice[];
  try {
    wled = await startWledDemoDevices(options.wledCount ?? WLED_DEMO_DEVICES.length, now);
  } catch (error) {
    await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    await homeAssistant.close();
    throw error;
  }
  const nanoleafDevice = (id: unknown) =>
    typeof id === 'string' ? nanoleaf.find((d) => d.id === id.toLowerCase()) : undefined;

  const state = (): LanSimState => ({
    lifx: { host: lifx.host, discoveryPort: lifx.discoveryPort, bulbs: lifx.list() },
    hueBridge: hueBridge.view(),
    govee: {
      host: govee.host,
      scanPort: govee.scanPort,
      replyPort: govee.replyPort,
      commandPort: null,
      devices: govee.list(),
    },
    nanoleaf: { devices: nanoleaf.map((d) => d.view()) },
    wled: { devices: wled.map((d) => d.view()) },
    homeAssistant: homeAssistant.view(),
  });

  async function plugin(app: FastifyInstance): Promise<void> {
    app.get('/', async (_request, reply) => sendLightsPage(reply, 'LAN lights simulator'));
    app.get('/state', async () => state());
    // The live page's shape: every LIFX bulb and Hue light as one swatch.
    app.get('/_control/bulbs', async () => ({
      bulbs: [
        ...lifx.list().map((b) => {
          const color = hsbkToColor(b.color);
          return {
            id: b.id,
            label: `LIFX ${b.label} · :${b.port}`,
            on: b.on && !b.fault.offline,
            hex: hsbkToHex(color),
            brightness: color.brightness,
            effect: b.fault.offline
              ? 'offline'
              : b.waveformRunning
                ? (b.lastWaveform?.waveformName ?? null)
                : null,
          };
        }),
        ...hueBridge.view().lights.map((l) => ({
          id: l.id,
          label: `Hue ${l.name}`,
          on: l.on,
          hex: l.hex,
          brightness: l.brightness / 100,
          effect:
            l.lastSignal && l.lastSignal.at + l.lastSignal.durationMs > now() ? l.lastSignal.signal : null,
        })),
        ...govee.list().map((d) => ({
          id: d.id,
          label: `Govee ${d.label} (${d.sku}) · :${d.commandPort}`,
          on: d.on && d.lanControl,
          hex: d.kelvin > 0 ? '#ffffff' : rgbHex(d.color),
          brightness: d.brightness / 100,
          effect: !d.lanControl ? 'LAN Control off' : d.fault.ignoreCommands ? 'ignores commands' : null,
        })),
        ...nanoleaf.map((d) => {
          const v = d.view();
          const lit = v.panels.find((p) => p.hex !== '#000000');
          return {
            id: v.id,
            label: `Nanoleaf ${v.name} · :${v.port}`,
            on: v.on && !v.fault.offline,
            hex: lit?.hex ?? '#000000',
            brightness: v.brightness / 100,
            effect: v.fault.offline ? 'offline' : v.colorMode === 'effect' ? v.select : null,
            panels: v.panels.map((p) => p.hex),
          };
        }),
        ...wledSwatches(wled),
        ...homeAssistantSwatches(homeAssistant),
      ],
    }));
    app.get('/_control/lifx/:id/log', async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!lifx.get(id)) return reply.code(404).send({ error: 'no such bulb' });
      return { received: lifx.log(id) };
    });
    app.post('/_control/lifx/fault', async (request, reply) => {
      const body = asBody(request.body);
      const id = typeof body.id === 'string' ? body.id : undefined;
      if (id !== undefined && !lifx.get(id)) return reply.code(404).send({ error: 'no such bulb' });
      const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      if (
        (body.dropPercent !== undefined && number(body.dropPercent) === undefined) ||
        (body.delayMs !== undefined && number(body.delayMs) === undefined) ||
        (body.offline !== undefined && typeof body.offline !== 'boolean')
      )
        return reply.code(400).send({ error: 'dropPercent and delayMs are numbers, offline a boolean' });
      lifx.setFault(id, {
        dropPercent: number(body.dropPercent),
        delayMs: number(body.delayMs),
        offline: typeof body.offline === 'boolean' ? body.offline : undefined,
      });
      return { bulbs: lifx.list().map((b) => ({ id: b.id, fault: b.fault })) };
    });
    app.get('/_control/govee/:id/log', async (request, reply) => {
      const { id } = request.params as { id: string };
      if (!govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
      return { received: govee.log(id) };
    });
    app.post('/_control/govee/fault', async (request, reply) => {
      const body = asBody(request.body);
      const id = typeof body.id === 'string' ? body.id : undefined;
      if (id !== undefined && !govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
      const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
      const flag = (v: unknown) => (typeof v === 'boolean' ? v : undefined);
      const numbers = ['lossPercent', 'delayMs', 'jitterMs'] as const;
      const flags = ['duplicates', 'ignoreCommands'] as const;
      if (
        numbers.some((k) => body[k] !== undefined && number(body[k]) === undefined) ||
        flags.some((k) => body[k] !== undefined && flag(body[k]) === undefined)
      )
        return reply.code(400).send({
          error: 'lossPercent, delayMs and jitterMs are numbers; duplicates and ignoreCommands booleans',
        });
      govee.setFault(id, {
        lossPercent: number(body.lossPercent),
        delayMs: number(body.delayMs),
        jitterMs: number(body.jitterMs),
        duplicates: flag(body.duplicates),
        ignoreCommands: flag(body.ignoreCommands),
      });
      return { devices: govee.list().map((d) => ({ id: d.id, fault: d.fault })) };
    });
    app.post('/_control/govee/lan-control', async (request, reply) => {
      const body = asBody(request.body);
      const id = typeof body.id === 'string' ? body.id : undefined;
      if (id !== undefined && !govee.get(id)) return reply.code(404).send({ error: 'no such Govee device' });
      if (typeof body.on !== 'boolean') return reply.code(400).send({ error: 'on is a boolean' });
      govee.setLanControl(id, body.on);
      return { devices: govee.list().map((d) => ({ id: d.id, lanControl: d.lanControl })) };
    });
    app.post('/_control/govee/reboot', async (request, reply) => {
      const body = asBody(request.body);
      if (typeof body.id !== 'string' || !govee.get(body.id))
        return reply.code(404).send({ error: 'no such Govee device' });
      return { device: await govee.reboot(body.id) };
    });
    app.post('/_control/hue/link-button', async () => {
      hueBridge.pressLinkButton();
      return { linkButton: true };
    });
    app.get('/_control/hue/commands', async () => ({ commands: hueBridge.commands() }));
    // A new address for the bridge (its DHCP lease): same id, certificate and keys, the old port silent.
    app.post('/_control/hue/move', async (request, reply) => {
      const body = asBody(request.body);
      const port = body.port ?? 0;
      const silentMs = body.silentMs ?? 0;
      if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65_535)
        return reply.code(400).send({ error: 'port is a whole number from 0 (any free one) to 65535' });
      if (typeof silentMs !== 'number' || !Number.isInteger(silentMs) || silentMs < 0 || silentMs > 600_000)
        return reply.code(400).send({ error: 'silentMs is a whole number of milliseconds up to 600000' });
      try {
        return { hueBridge: await hueBridge.move(port, { silentMs }) };
      } catch (error) {
        return reply.code(409).send({ error: error instanceof Error ? error.message : String(error) });
      }
    });
    // The power-button gesture on one controller (`id`: its serial) or on all of them.
    app.post('/_control/nanoleaf/button', async (request, reply) => {
      const { id } = asBody(request.body);
      const targets = id === undefined ? nanoleaf : [nanoleafDevice(id)].filter((d) => d !== undefined);
      if (targets.length === 0) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
      for (const device of targets) device.holdButton();
      return { pairing: targets.map((d) => d.id) };
    });
    app.post('/_control/nanoleaf/fault', async (request, reply) => {
      const body = asBody(request.body);
      const targets =
        body.id === undefined ? nanoleaf : [nanoleafDevice(body.id)].filter((d) => d !== undefined);
      if (targets.length === 0) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
      const number = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : undefined);
      if (
        (body.dropPercent !== undefined && number(body.dropPercent) === undefined) ||
        (body.delayMs !== undefined && number(body.delayMs) === undefined) ||
        (body.offline !== undefined && typeof body.offline !== 'boolean') ||
        (body.revokeTokens !== undefined && body.revokeTokens !== true) ||
        (body.serialNo !== undefined &&
          body.serialNo !== null &&
          !(typeof body.serialNo === 'string' && /^[A-Za-z0-9]{1,32}$/.test(body.serialNo)))
      )
        return reply.code(400).send({
          error:
            'dropPercent and delayMs are numbers ≥ 0, offline a boolean, revokeTokens true, serialNo 1–32 letters and digits or null',
        });
      for (const device of targets) {
        device.setFault({
          ...(number(body.dropPercent) === undefined ? {} : { dropPercent: number(body.dropPercent) }),
          ...(number(body.delayMs) === undefined ? {} : { delayMs: number(body.delayMs) }),
          ...(typeof body.offline === 'boolean' ? { offline: body.offline } : {}),
          ...(body.serialNo === undefined ? {} : { serialNo: body.serialNo }),
        });
        if (body.revokeTokens === true) device.revokeTokens();
      }
      return { devices: nanoleaf.map((d) => ({ id: d.id, fault: d.view().fault, tokens: d.view().tokens })) };
    });
    app.get('/_control/nanoleaf/:id/log', async (request, reply) => {
      const device = nanoleafDevice((request.params as { id: string }).id);
      if (!device) return reply.code(404).send({ error: 'no such Nanoleaf controller' });
      return { requests: device.requests() };
    });
    registerHomeAssistantControl(app, homeAssistant);
    registerWledControl(app, wled);
    app.post('/_control/reset', async () => {
      lifx.reset();
      hueBridge.reset();
      govee.reset();
      for (const device of nanoleaf) device.reset();
      for (const device of wled) device.reset();
      homeAssistant.reset();
      return { ok: true };
    });
  }

  return {
    lifx,
    hueBridge,
    govee,
    nanoleaf,
    wled,
    homeAssistant,
    state,
    plugin,
    async close() {
      await Promise.all(wled.map((d) => d.close()));
      await homeAssistant.close();
      await Promise.all([lifx.close(), hueBridge.close(), govee.close(), ...nanoleaf.map((d) => d.close())]);
    },
  };
}
