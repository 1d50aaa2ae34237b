import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  startHomeAssistantSim,
  startLocalHueBridge,
  startNanoleafSim,
  startWledSim,
  type HomeAssistantSim,
  type LocalHueBridge,
  type NanoleafSimDevice,
  type WledSimDevice,
} from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../../scripts/test-pace.mjs';
import { renderStatusPage, type FakeElement } from '../../test/status-page-dom.js';
import { startLocalBridge, type LocalBridge } from '../bridge/local-bridge.js';
import { createPlayback, type Playback } from '../follow/playback.js';
import { createLogger, type Logger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { createHomeAssistantSupport } from './home-assistant-support.js';
import { createHueSupport, type HueSupport } from './hue-support.js';
import { createLightsHub, type LightsHub } from './lights-hub.js';
import { createNanoleafSupport, type NanoleafSupport } from './nanoleaf-support.js';
import { startWledSupport } from './wled-support.js';

// Anyone on the LAN who can name a device writes into the companion's log and status page. Here a
// Nanoleaf controller, a Hue bridge, a Home Assistant entity and a WLED strip, all simulated on
// 127.0.0.1, name themselves with a line break, a bidi override, a terminal title and a screen
// clear, NUL and a whole forged log line; the WLED name puts an emoji across its driver's
// 200-character cut, the Nanoleaf one across the 80-character label.

const FORGED = '\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com';
const hostile = (name: string) =>
  `${name}\nlamp \u202eevil \u001b]0;title\u0007\u001b[2J\u0000 ${'x'.repeat(40 - name.length)}😀${FORGED}`;
/** Race control's words reach the companion through the server: they are outside text too. */
const RACE_CONTROL = `RED FLAG\u202e${FORGED}\u001b[2J`;
const NANOLEAF = hostile('Desk');
const NANOLEAF_MODEL = `NL42\u202e\r\n\u009b2J`;
const HUE = hostile('Hue den');
const HOME_ASSISTANT = hostile('Porch');
const WLED_START = hostile('Strip');
const WLED = `${WLED_START}${'w'.repeat(199 - WLED_START.length)}😀 and more`;
/** How each name starts in the log: its line break and bidi override written out. */
const LOGGED = {
  nanoleaf: 'Desk\\nlamp \\u{202e}evil \\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{0}',
  nanoleafModel: 'NL42\\u{202e}\\r\\n\\u{9b}2J',
  hue: 'Hue den\\nlamp \\u{202e}evil',
  homeAssistant: 'Porch\\nlamp \\u{202e}evil',
  wled: 'Strip\\nlamp \\u{202e}evil',
  forged: '\\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com',
  raceControl:
    'Flag red: RED FLAG\\u{202e}\\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com\\u{1b}[2J',
};
/** A control, format or separator character, a lone surrogate: none may be written or shown. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;
const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR) /;
const TOKEN = 'ha.hostile-names.7f3a9c';
const WAIT = { timeout: paced(8_000), interval: 25 };

let dir: string;
let file: string;
let log: Logger;
let store: StateFile;
let hub: LightsHub;
let nanoleafSim: NanoleafSimDevice;
let hueSim: LocalHueBridge;
let haSim: HomeAssistantSim;
let wledSim: WledSimDevice;
let nanoleaf: NanoleafSupport;
let hue: HueSupport;
let ha: ReturnType<typeof createHomeAssistantSupport>;
let playback: Playback;
let bridge: LocalBridge;
const stop = new AbortController();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-hostile-names-'));
  file = path.join(dir, 'companion.log');
  log = createLogger({ console: false, file });
  store = new StateFile(dir);
  store.load();
  hub = createLightsHub({ log });
  nanoleafSim = await startNanoleafSim({
    name: NANOLEAF,
    model: NANOLEAF_MODEL,
    serialNo: 'S1924EVIL01',
    panelCount: 2,
  });
  hueSim = await startLocalHueBridge({ name: HUE, mac: '00:17:88:0e:71:01' });
  haSim = await startHomeAssistantSim({
    token: TOKEN,
    lights: [{ entityId: 'light.porch', name: HOME_ASSISTANT, area: null, modes: ['rgb'], features: 0 }],
  });
  wledSim = await startWledSim({ name: WLED, mac: 'a0b765e0e0e1' });
  nanoleaf = createNanoleafSupport({ hub, log, store, mdns: false, pairingTimeoutMs: 2_000, pollMs: 25 });
  hue = createHueSupport({ hub, log, store, mdns: false, deviceName: 'hostile-names' });
  ha = createHomeAssistantSupport({
    hub,
    log,
    store,
    server: 'http://127.0.0.1:1',
    options: { demo: false, homeAssistant: { url: haSim.url, token: TOKEN, insecure: false } },
    signal: stop.signal,
  });
  playback = createPlayback({ hub, log, delayMs: () => 0, onPlayed: () => undefined });
  bridge = await startLocalBridge({
    port: 0,
    appOrigins: ['http://localhost:3000'],
    actions: ha.withActions({
      status: () => ({
        version: '0.1.0',
        platform: process.platform,
        linked: true,
        flag: playback.shown(),
        lights: hub.lights(),
        hue: hue.view(),
        nanoleaf: nanoleaf.view(),
        log: log.recent(),
      }),
      test: () => true,
      setPaused: () => undefined,
      rescan: () => hub.rescan(),
      pairHue: (url) => hue.pair(url),
      pairNanoleaf: (address) => nanoleaf.pair(address),
      forgetNanoleaf: (id) => nanoleaf.forget(id),
      unlink: async () => undefined,
    }),
  });
});

afterAll(async () => {
  stop.abort();
  await bridge.close();
  await nanoleaf.close();
  await hue.close();
  await hub.close();
  await Promise.all([nanoleafSim.close(), hueSim.close(), haSim.close(), wledSim.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = async (route: string, body: unknown) => {
  const response = await fetch(`${bridge.url}api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
};

/** Every text in a JSON answer, keys and values. */
function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (typeof value === 'object' && value !== null)
    return Object.entries(value).flatMap(([key, v]) => [key, ...textsOf(v)]);
  return [];
}

describe('device names in the log and on the status page', () => {
  test('paired, read and failing devices with hostile names, and a hostile race control message: every log message is one clean line', async () => {
    // Nanoleaf and Hue are paired through the local bridge, as the status page does.
    await nanoleaf.start([{ host: '127.0.0.1', port: nanoleafSim.port }], null);
    nanoleafSim.holdButton();
    const nanoleafPaired = await post('nanoleaf/pair', { address: `127.0.0.1:${nanoleafSim.port}` });
    expect(nanoleafPaired.status).toBe(200);
    await hue.start([hueSim.url], null);
    hueSim.pressLinkButton();
    const huePaired = await post('hue/pair', { url: hueSim.url });
    expect(huePaired.status).toBe(200);
    for (const answer of [nanoleafPaired, huePaired]) {
      expect(answer.text).not.toMatch(UNSAFE);
      expect((JSON.parse(answer.text) as { name: string }).name).toMatch(
        /^(Desk|Hue den) lamp evil \]0;title\[2J x+😀 2026-11-29T10:00:00\.000Z INFO Linked as evil@example\.com$/,
      );
    }

    // Home Assistant refuses the entity (its name is in the error), then the entity goes away.
    await vi.waitFor(() => expect(ha.view().state).toBe('connected'), WAIT);
    haSim.setFault({ rejectEntity: 'light.porch' });
    // WLED leaves the network: the rescan finds it silent, then back.
    await startWledSupport({ hub, log, addresses: [{ host: '127.0.0.1', port: wledSim.port }], mdns: false });
    hub.play('green');
    await vi.waitFor(() => expect(ha.view().entityErrors).toHaveLength(1), WAIT);
    wledSim.setFault({ offline: true });
    await hub.rescan();
    wledSim.setFault({ offline: false });
    haSim.setUnavailable('light.porch', true);
    await hub.rescan();
    playback.showNow({ state: 'red', message: RACE_CONTROL });

    const written = fs.readFileSync(file, 'utf8');
    expect(written.endsWith('\n')).toBe(true);
    const lines = written.slice(0, -1).split('\n');
    // No line begins with a piece of a name: each is a timestamp, a level and one message.
    for (const line of lines) {
      expect(line).toMatch(LOG_LINE);
      expect(line).not.toMatch(UNSAFE);
    }
    expect(lines.filter((line) => line.startsWith('2026-11-29T10:00:00.000Z'))).toEqual([]);
    const has = (...parts: string[]) => lines.some((line) => parts.every((part) => line.includes(part)));
    expect(has(`Nanoleaf: paired with ${LOGGED.nanoleaf}`, LOGGED.forged, `(${LOGGED.nanoleafModel})`)).toBe(
      true,
    );
    expect(has(`Hue: paired with ${LOGGED.hue}`, LOGGED.forged)).toBe(true);
    expect(has(`refused turn_on for ${LOGGED.homeAssistant}`, LOGGED.forged)).toBe(true);
    expect(has(`Home Assistant: ${LOGGED.homeAssistant}`, 'is unavailable')).toBe(true);
    // WLED's driver cut its name at 200 characters, inside the emoji: half of it is written out.
    expect(has(`WLED "${LOGGED.wled}`, '\\u{d83d}" is not answering')).toBe(true);
    expect(has(`WLED "${LOGGED.wled}`, 'answers again')).toBe(true);
    expect(has(LOGGED.raceControl)).toBe(true);

    // The recent entries (the status page's log) hold the same messages.
    const recent = log.recent();
    expect(recent.map((e) => `${e.at} ${e.level.toUpperCase()} ${e.message}`)).toEqual(
      lines.slice(-recent.length),
    );
  });

  test('/api/status and the status page show the names cleaned, each isolated from the text around it', async () => {
    const text = await (await fetch(`${bridge.url}api/status`)).text();
    const status = JSON.parse(text) as {
      flag: { message: string };
      lights: { provider: string; label: string }[];
      hue: { bridges: { name: string }[] };
      nanoleaf: { devices: { name: string }[] };
      homeAssistant: { entityErrors: { name: string; message: string }[]; message: string | null };
      log: { message: string }[];
    };
    expect(text).not.toMatch(UNSAFE);
    for (const piece of textsOf(status)) expect(piece).not.toMatch(UNSAFE);
    const names = [
      status.hue.bridges[0]!.name,
      status.nanoleaf.devices[0]!.name,
      status.homeAssistant.entityErrors[0]!.name,
    ];
    expect(names).toEqual([
      expect.stringMatching(/^Hue den lamp evil \]0;title\[2J x+😀 2026-11-29T10:00:00\.000Z INFO Linked as/),
      expect.stringMatching(/^Desk lamp evil \]0;title\[2J x+😀 2026-11-29T10:00:00\.000Z INFO Linked as/),
      expect.stringMatching(/^Porch lamp evil \]0;title\[2J x+😀 2026-11-29T10:00:00\.000Z INFO Linked as/),
    ]);
    expect(status.homeAssistant.entityErrors[0]!.message).toContain(`refused turn_on for ${names[2]}`);
    const labels = Object.fromEntries(status.lights.map((l) => [l.provider, l.label]));
    expect(labels.nanoleaf).toMatch(/^Desk lamp evil \]0;title\[2J x+😀 2026/);
    expect(labels.nanoleaf!.length).toBeLessThanOrEqual(80);
    expect(labels.wled).toMatch(/^Strip lamp evil \]0;title\[2J x+😀 2026-11-29T10:/);
    expect(labels.wled!.length).toBeLessThanOrEqual(80);
    expect(status.log.map((e) => e.message).join('\n')).toContain(LOGGED.forged);
    expect(status.flag.message).toBe('RED FLAG 2026-11-29T10:00:00.000Z INFO Linked as evil@example.com[2J');

    const page = renderStatusPage(status);
    const shown = ['log', 'lights', 'hue', 'nanoleaf', 'ha'].map(page);
    for (const element of shown) expect(element.textContent).not.toMatch(UNSAFE);
    const isolated = (root: FakeElement) =>
      root
        .descendants()
        .filter((e) => e.tagName === 'BDI')
        .map((e) => e.textContent);
    expect(isolated(page('hue'))).toContain(names[0]);
    expect(isolated(page('nanoleaf'))).toContain(names[1]);
    expect(isolated(page('ha')).join('\n')).toContain(names[2]);
    expect(isolated(page('lights'))).toEqual(
      expect.arrayContaining([labels.nanoleaf, labels.wled, labels.hue_local]),
    );
    expect(isolated(page('log'))).toEqual([...status.log].reverse().map((e) => e.message));
  });
});
