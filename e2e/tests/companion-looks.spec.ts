import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { paced } from '../../scripts/test-pace.mjs';
import { expect, test } from '../fixtures';
import { signUpViaApi } from '../support/accounts';
import {
  endProcess,
  setDemoRace,
  setDemoRaceSpeed,
  startDemoServer,
  startLinkedCompanion,
  waitFor,
  type CompanionProcess,
  type DemoServer,
} from '../support/companion-process';
import { freePort } from '../support/ports';

/**
 * The companion plays the account's looks on the LAN lights: red set to a steady blue at 40 %
 * reaches the virtual LIFX bulbs within 2 s with no strobe, a fastest lap left alone changes no
 * LAN light, and with only races followed a practice drives none while the status page says why.
 */

const RACE_FIXTURE = '2021-saudi-arabia-race';
const PRACTICE_FIXTURE = '2024-saudi-arabia-fp2';
/** Minutes into the race's recording: green (held there: the race is paused). */
const GREEN_MINUTES = 203.9;
const U16 = 65_535;
/** 220° on LIFX's 0–65535 hue wheel. */
const BLUE_HUE = Math.round((220 / 360) * U16);
/** Trackside green, 120°. */
const GREEN_HUE = Math.round((120 / 360) * U16);

interface LanState {
  lifx: {
    bulbs: { id: string; on: boolean; baseColor: { hue: number; saturation: number; brightness: number } }[];
  };
  govee: { devices: unknown[] };
  nanoleaf: { devices: unknown[] };
  wled: { devices: unknown[] };
  homeAssistant: { lights: unknown[] };
}

test.describe('the companion plays the account looks', () => {
  // CI's one retry (decision 008) runs it again in a new worker, after afterAll ended this one's.
  test.describe.configure({ mode: 'serial' });
  let server: DemoServer | null = null;
  let companion: CompanionProcess | null = null;
  let api: APIRequestContext | null = null;
  const dirs: string[] = [];

  test.afterAll(async () => {
    await endProcess(companion?.process ?? null, 'SIGTERM');
    await endProcess(server?.process ?? null, 'SIGKILL');
    await api?.dispose();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('red as a steady blue at 40 %, fastest lap left alone, and only races followed', async () => {
    test.setTimeout(paced(180_000));
    const temp = (name: string) => {
      const dir = mkdtempSync(path.join(tmpdir(), name));
      dirs.push(dir);
      return dir;
    };
    const [port, lifxPort, huePort, bridgePort] = await Promise.all([
      freePort(),
      freePort(),
      freePort(),
      freePort(),
    ]);
    server = await startDemoServer({
      port,
      dataDir: temp('flaglight-looks-server-'),
      env: { DEMO_LIFX_LAN_PORT: String(lifxPort), DEMO_HUE_BRIDGE_PORT: String(huePort) },
    });
    const base = server.base;
    await setDemoRace(base, RACE_FIXTURE, GREEN_MINUTES, 1);
    await setDemoRaceSpeed(base, 0);
    api = await playwrightRequest.newContext({ baseURL: base });
    const session = await signUpViaApi(api);
    const auth = { authorization: `Bearer ${session.token}` };
    companion = await startLinkedCompanion({
      server: base,
      bridgePort,
      dataDir: temp('flaglight-looks-companion-'),
      name: 'E2E Looks',
      token: session.token,
    });
    const { context } = companion;
    const status = async () =>
      (await (await fetch(`http://127.0.0.1:${bridgePort}/api/status`)).json()) as {
        stream: { state: string };
        lights: { driven: boolean }[];
        sessionLights?: { line: string | null };
      };
    await waitFor(
      'the companion to follow the race with its LAN lights',
      async () => {
        const s = await status();
        return s.stream.state === 'following' && s.lights.filter((l) => l.driven).length >= 6;
      },
      60_000,
      context,
    );
    const lan = async () => (await (await fetch(`${base}/sims/lan/state`)).json()) as LanState;
    /** What every virtual LAN light shows (not the simulators' counters of reads and scans). */
    const shown = async () => {
      const state = (await lan()) as unknown as Record<string, Record<string, Record<string, unknown>[]>>;
      const pick = (list: Record<string, unknown>[] | undefined, keys: string[]) =>
        (list ?? []).map((item) => keys.map((key) => JSON.stringify(item[key])).join(' '));
      return JSON.stringify([
        pick(state.lifx?.bulbs, ['id', 'on', 'baseColor']),
        pick(state.hueBridge?.lights, ['id', 'on', 'brightness', 'xy']),
        pick(state.govee?.devices, ['id', 'on', 'brightness', 'color', 'kelvin']),
        pick(state.nanoleaf?.devices, ['id', 'on', 'brightness', 'hue', 'sat', 'effect', 'panels']),
        pick(state.wled?.devices, ['id', 'state', 'effect']),
        pick(state.homeAssistant?.lights, ['entityId', 'state', 'brightness', 'hs', 'kelvin']),
      ]);
    };

    const putPreferences = async (
      change: (preferences: Record<string, unknown>) => Record<string, unknown>,
    ) => {
      const current = (await (await api!.get('/api/me/preferences', { headers: auth })).json()) as {
        version: number;
        preferences: Record<string, unknown>;
      };
      const response = await api!.put('/api/me/preferences', {
        headers: auth,
        data: { version: current.version, preferences: change(current.preferences) },
      });
      expect(response.status(), await response.text()).toBe(200);
    };
    const presets = await import('@flaglight/core');
    const blueRed = {
      kind: 'show',
      color: { name: 'blue', hue: 220, saturation: 1 },
      brightness: 40,
      effect: { kind: 'steady' },
      effectMs: 200,
      settleBrightness: 40,
    };
    await putPreferences((preferences) => ({
      ...preferences,
      looks: {
        ...presets.TRACKSIDE,
        flags: { ...presets.TRACKSIDE.flags, red: blueRed, fastest_lap: { kind: 'leave' } },
      },
    }));
    // The preferences reach the companion on its stream.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // The room's first flag: the race's green on every virtual LIFX bulb. Until it comes (the
    // companion reads each light's own state first) the bulbs show their own looks, one of them off
    // and some white, which are neither the race's flag nor the test's.
    const isLook = (bulb: LanState['lifx']['bulbs'][number], hue: number, brightness?: number) =>
      bulb.on &&
      bulb.baseColor.saturation > U16 * 0.9 &&
      Math.min(Math.abs(bulb.baseColor.hue - hue), U16 - Math.abs(bulb.baseColor.hue - hue)) < 1_200 &&
      (brightness === undefined || Math.abs(bulb.baseColor.brightness / U16 - brightness) < 0.02);
    await waitFor(
      "the race's green on every virtual LIFX bulb",
      async () => {
        const { bulbs } = (await lan()).lifx;
        return bulbs.length >= 2 && bulbs.every((bulb) => isLook(bulb, GREEN_HUE));
      },
      20_000,
      context,
    );

    // Test red: every virtual LIFX bulb goes from the green to the blue at 40 % within 2 s, and
    // shows nothing else on the way (no strobe: never off, never red).
    const fired = await api.post('/api/devices/test', { headers: auth, data: { state: 'red' } });
    expect(fired.status(), await fired.text()).toBe(200);
    const firedAt = Date.now();
    const seen: string[] = [];
    let blueAt: number | null = null;
    while (Date.now() - firedAt < 3_000) {
      const { bulbs } = (await lan()).lifx;
      const at = Date.now() - firedAt;
      for (const bulb of bulbs) {
        if (isLook(bulb, GREEN_HUE) || isLook(bulb, BLUE_HUE, 0.4)) continue;
        seen.push(`${bulb.id} at ${at} ms: ${bulb.on ? JSON.stringify(bulb.baseColor) : 'off'}`);
      }
      if (blueAt === null && bulbs.every((bulb) => isLook(bulb, BLUE_HUE, 0.4))) blueAt = Date.now();
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(blueAt, 'every bulb showed the blue at 40 %').not.toBeNull();
    expect(blueAt! - firedAt).toBeLessThanOrEqual(2_000);
    expect(seen, 'no strobe: every bulb showed the green or the blue at 40 %, nothing else').toEqual([]);
    // The test ends (3 s held): the race's green comes back before the next check.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    // Fastest lap left alone: no LAN light changes.
    const before = await shown();
    const lap = await api.post('/api/devices/test', { headers: auth, data: { state: 'fastest_lap' } });
    expect(lap.status()).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await shown()).toBe(before);

    // Only races followed: the demo's practice drives no LAN light, and the status page says why.
    // Green becomes a dim white, so the practice's green would not look like the race's; with the
    // broadcast delay off, a practice flag that got through would show at once.
    const dimWhite = {
      ...blueRed,
      color: { name: 'white', hue: 0, saturation: 0 },
      brightness: 30,
      settleBrightness: 30,
    };
    await putPreferences((preferences) => {
      const looks = preferences.looks as typeof presets.TRACKSIDE;
      return {
        ...preferences,
        delay: { ...(preferences.delay as object), enabled: false },
        looks: { ...looks, flags: { ...looks.flags, green: dimWhite } },
        lightFollow: { ...presets.DEFAULT_LIGHT_FOLLOW, sessions: ['race'] },
      };
    });
    const quiet = await shown();
    await setDemoRace(base, PRACTICE_FIXTURE, 0, 30);
    await waitFor(
      'the status page to say the practice leaves the lights alone',
      async () =>
        /practice session leaves your lights alone/.test((await status()).sessionLights?.line ?? ''),
      60_000,
      context,
    );
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(await shown()).toBe(quiet);
  });
});
