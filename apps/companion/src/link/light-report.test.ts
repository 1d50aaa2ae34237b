import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pairNanoleaf } from '@flaglight/lights/lan';
import { startNanoleafSim, type NanoleafSimDevice } from '@flaglight/sims';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { entryCommand } from '../../../../scripts/entry-bundle.mjs';
import { paced, pollFor } from '../../../../scripts/test-pace.mjs';
import { startCompanion, type Companion } from '../companion.js';
import { GOVEE_DEFAULT_PORTS } from '../options.js';
import { createLogger } from '../system/log.js';
import { createLightReporter } from './light-report.js';
import { createServerApi, type ReportedLight } from './server-api.js';

/**
 * The companion's light report against what a hostile or broken device on the LAN can name itself.
 * The first suite runs the real Flaglight server (its own process, demo mode, a fresh SQLite) and
 * the whole companion, whose lights are simulated Nanoleaf controllers over HTTP on 127.0.0.1. The
 * second puts a stand-in server in front of the reporter: one that refuses what the contract
 * allows, as a newer or stricter server would.
 */
const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../server');

const until = <T>(check: () => T | Promise<T>, what: string, { ms = 20_000, everyMs = 50 } = {}) =>
  pollFor(check, what, ms, everyMs);

/** The server in demo mode, in a process of its own: its simulators stand in for Turnstile. */
async function startServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-light-report-'));
  const [node, args] = await entryCommand('server');
  const child: ChildProcess = spawn(node, args, {
    cwd: SERVER_DIR,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      FLAGLIGHT_MODE: 'demo',
      F1_LIVE_TIMING: 'off',
      LOG_LEVEL: 'info',
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A graceful stop waits for open connections; this test does not need one.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(kill);
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    const url = await until(
      () => {
        if (child.exitCode !== null) throw new Error(`the server exited: ${output.slice(-2_000)}`);
        return /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
      },
      'the server to listen',
      { ms: 60_000 },
    );
    return { url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function call(base: string, method: string, route: string, body?: unknown, token?: string) {
  const response = await fetch(`${base}${route}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
}

async function signUp(base: string): Promise<string> {
  const config = (await call(base, 'GET', '/api/config')) as {
    turnstile: { siteKey: string; tokenUrl?: string };
  };
  const bot = await call(base, 'POST', config.turnstile.tokenUrl ?? '/sims/turnstile/token', {
    sitekey: config.turnstile.siteKey,
    action: 'signup',
  });
  const session = await call(base, 'POST', '/auth/signup', {
    email: `light.report.${Date.now().toString(36)}.${process.pid}@example.com`,
    password: 'Checkered1!',
    plan: 'trial',
    turnstileToken: bot.token,
  });
  return String(session.token);
}

describe('light names from the LAN reach the real server clean', () => {
  let server: { url: string; stop(): Promise<void> };
  const cleanup: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    server = await startServer();
  }, paced(90_000));
  afterAll(async () => {
    // Each step gets its own time limit, so one slow close cannot keep the server (and the run)
    // alive: the server is stopped whatever happened before.
    for (const step of cleanup.reverse()) {
      const started = Date.now();
      await Promise.race([step(), new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (Date.now() - started >= 10_000) console.warn('light-report cleanup: a close took over 10 s');
    }
    await server?.stop();
  }, paced(90_000));

  async function controller(options: { name: string; serialNo: string }) {
    const device: NanoleafSimDevice = await startNanoleafSim({ ...options, panelCount: 2 });
    cleanup.push(() => device.close());
    device.holdButton();
    const token = await pairNanoleaf({ host: '127.0.0.1', port: device.port }, { timeoutMs: 5_000 });
    return { host: '127.0.0.1', port: device.port, token, id: device.id, name: 'Nanoleaf' };
  }

  test(
    'a light named with 79 characters and an emoji, one with a line break and a bidi override, one with only invisible characters and one with a 200-character id: the others are listed with clean names',
    { timeout: paced(60_000) },
    async () => {
      const session = await signUp(server.url);
      const devices = [
        // The emoji's surrogate pair straddles the 80th character: cut in half, the server refused it.
        await controller({ name: `${'L'.repeat(79)}🏁`, serialNo: 'S1924LONG01' }),
        // A line break (refused by the server) and a right-to-left override (shows "exe.pdf" reversed).
        await controller({ name: 'Living\nRoom \u202Efdp.exe', serialNo: 'S1924BIDI01' }),
        await controller({ name: '\u200B\u2066\r\n\u200F', serialNo: 'S1924NONE01' }),
        await controller({ name: 'Shapes Hall', serialNo: `S${'A'.repeat(199)}` }),
      ];
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-light-report-companion-'));
      fs.writeFileSync(
        path.join(dir, 'state.json'),
        JSON.stringify({ hueBridges: [], paused: false, nanoleafDevices: devices }),
      );
      const started = await startCompanion({
        server: server.url,
        dataDir: dir,
        port: 0,
        openBrowser: false,
        demo: false,
        lifxTargets: [],
        goveeTargets: [],
        goveePorts: GOVEE_DEFAULT_PORTS,
        nanoleaf: [],
        hueBridges: [],
        lanScan: false,
        console: false,
        logToFile: false,
      });
      if (started.kind !== 'started') throw new Error('a companion already runs on the port');
      const companion: Companion = started.companion;
      cleanup.push(async () => {
        await companion.close();
        fs.rmSync(dir, { recursive: true, force: true });
      });
      const code = await until(() => companion.status().userCode, 'the link code');
      await call(server.url, 'POST', '/api/device/approve', { code }, session);

      const expected = [
        ['s1924long01', 'L'.repeat(79)],
        ['s1924bidi01', 'Living Room fdp.exe'],
        ['s1924none01', 'Nanoleaf s1924none01'],
      ];
      // Reports follow each controller as it answers: wait for the one with every name read.
      let listed: ReportedLight[] = [];
      // Twice a second: the device list is rate limited like every route.
      await until(
        async () => {
          const [device] = (await call(server.url, 'GET', '/api/devices', undefined, session)) as unknown as {
            lights: ReportedLight[];
          }[];
          listed = device?.lights ?? [];
          return JSON.stringify(listed.map((l) => [l.id, l.label])) === JSON.stringify(expected);
        },
        'the lights on the server',
        { everyMs: 500 },
      ).catch((error: unknown) => {
        if (!(error instanceof Error && error.message.startsWith('timed out'))) throw error;
      });
      expect(listed.map((l) => [l.id, l.label])).toEqual(expected);
      expect(listed.every((l) => l.provider === 'nanoleaf' && l.reachable)).toBe(true);
      // The light the server could not take is named in the log, and only once.
      const refused = companion.log
        .recent()
        .filter((entry) => entry.message.includes('is not reported to the server'));
      expect(refused).toHaveLength(1);
      expect(refused[0]!.message).toMatch(
        /^Light Nanoleaf "saaa.*" is not reported to the server: light id is too long/,
      );
      // The status page shows the same clean names.
      const shown = companion.status().lights as { label: string }[];
      expect(shown.map((l) => l.label)).toContain('Living Room fdp.exe');
    },
  );
});

/** A stand-in for the lights route: refuses light `bad` by its index, or a report with `veto` whole. */
async function startStandIn() {
  const reports: ReportedLight[][] = [];
  const accepted: ReportedLight[][] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const answer = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(json));
      };
      if (req.method !== 'PUT' || req.url !== '/api/device/lights')
        return answer(404, { error: 'Not found' });
      const lights = (JSON.parse(body) as { lights: ReportedLight[] }).lights;
      reports.push(lights);
      const bad = lights.findIndex((l) => l.id === 'bad');
      if (bad >= 0)
        return answer(400, {
          error: `lights.${bad}.label: label is not allowed here`,
          code: 'invalid_input',
        });
      if (lights.some((l) => l.id === 'veto'))
        return answer(400, { error: 'lights: not allowed here', code: 'invalid_input' });
      accepted.push(lights);
      return answer(200, { success: true });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reports,
    accepted,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const light = (id: string, label = `Bulb ${id}`): ReportedLight => ({
  provider: 'lifx_lan',
  id,
  label,
  reachable: true,
});

describe('a report the server refuses', () => {
  let standIn: Awaited<ReturnType<typeof startStandIn>>;
  let stop = () => {};
  afterEach(async () => {
    stop();
    await standIn.close();
  });

  function reporter(lights: () => ReportedLight[]) {
    const log = createLogger({ console: false });
    const r = createLightReporter({
      api: createServerApi(standIn.url),
      log,
      token: () => 'device-token',
      lights,
      timing: { debounceMs: 10, minGapMs: 50, retryMs: 100, refusedRetryMs: 60_000 },
    });
    stop = () => r.close();
    return { r, log };
  }

  test('a light refused by its index is left out and the others are reported at once, never in a loop', async () => {
    standIn = await startStandIn();
    const { r, log } = reporter(() => [light('a1'), light('bad'), light('a2')]);
    r.schedule();
    await until(() => standIn.accepted.length === 1, 'the report without the refused light');
    // With a 100 ms retry interval, nothing more is sent on its own.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(standIn.reports.map((lights) => lights.map((l) => l.id))).toEqual([
      ['a1', 'bad', 'a2'],
      ['a1', 'a2'],
    ]);
    // The hub reporting again and again (bulbs coming and going): the refused light stays out.
    for (let i = 0; i < 10; i += 1) {
      r.schedule();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(standIn.reports.filter((lights) => lights.some((l) => l.id === 'bad'))).toHaveLength(1);
    expect(standIn.accepted.every((lights) => lights.map((l) => l.id).join() === 'a1,a2')).toBe(true);
    // Named once in the log, by its printable id.
    expect(log.recent().filter((e) => e.message.includes('"bad"'))).toEqual([
      expect.objectContaining({
        level: 'warn',
        message:
          'The server refused light LIFX "bad" (lights.1.label: label is not allowed here): reporting the others without it.',
      }),
    ]);
  });

  test('a report refused as a whole is not sent again until the lights change', async () => {
    standIn = await startStandIn();
    let lights = [light('a1'), light('veto')];
    const { r, log } = reporter(() => lights);
    r.schedule();
    await until(() => standIn.reports.length === 1, 'the first report');
    for (let i = 0; i < 20; i += 1) {
      r.schedule();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(standIn.reports).toHaveLength(1);
    expect(
      log.recent().some((e) => /refused the lights report \(400: lights: not allowed here\)/.test(e.message)),
    ).toBe(true);
    // The lights change (the odd device is gone): the new list is reported.
    lights = [light('a1'), light('a3')];
    r.schedule();
    await until(() => standIn.accepted.length === 1, 'the changed report');
    expect(standIn.accepted[0]!.map((l) => l.id)).toEqual(['a1', 'a3']);
  });
});
