import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_PREFERENCES } from '@flaglight/contract';
import type { FlagEventData } from '@flaglight/core';
import { startF1LiveSim, type RunningF1LiveSim } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced, pollFor } from '../../../../scripts/test-pace.mjs';
import { startCompanion, type Companion } from '../companion.js';
import { GOVEE_DEFAULT_PORTS } from '../options.js';
import { SOURCE_F1_LIVE, SOURCE_SERVER } from './f1-fallback.js';

/**
 * The whole companion (follower, fallback, delayed playback, local bridge) against a stand-in for the
 * Flaglight server's live routes over real HTTP, which is closed to stage the outage, and the F1
 * live-timing simulator replaying 2021 Saudi Arabia. What the lights played is read from the
 * companion's own log ("Flag …" is written when a flag reaches the lights hub).
 */
const SESSION_KEY = 7000;
/** 2021 Saudi Arabia race, 02:23:00 into the stream: TrackStatus 2 (Yellow), 10 s before a VSC. */
const BEFORE_VSC_MS = 8_580_000;

interface StandIn {
  port: number;
  events: { id: number; data: FlagEventData }[];
  listen(): Promise<void>;
  close(): Promise<void>;
}

function flag(state: FlagEventData['state'], message: string): FlagEventData {
  const now = new Date().toISOString();
  return { sessionKey: SESSION_KEY, state, activeSectors: [], cause: { date: now, message }, emittedAt: now };
}

function preferencesDocument(delaySeconds: number) {
  return {
    version: 1,
    preferences: { ...DEFAULT_PREFERENCES, delay: { enabled: delaySeconds > 0, seconds: delaySeconds } },
    updatedAt: null,
  };
}

/** The server's ticket, state, events, preferences and lights routes; `close()` is the outage. */
function createStandIn(): StandIn {
  const open = new Set<http.ServerResponse>();
  let server: http.Server | null = null;
  const standIn: StandIn = {
    port: 0,
    events: [{ id: 1, data: flag('green', 'TRACK CLEAR') }],
    async listen() {
      server = http.createServer((req, res) => {
        const url = new URL(req.url ?? '/', 'http://x');
        const json = (status: number, body: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(body));
        };
        if (url.pathname === '/api/live/ticket') return json(200, { ticket: 't', expiresAt: '' });
        if (url.pathname === '/api/me/preferences') return json(200, preferencesDocument(0));
        if (url.pathname === '/api/device/lights') return json(200, { success: true });
        if (url.pathname === '/api/live/state') {
          const last = standIn.events.at(-1);
          return json(200, { sessionKey: SESSION_KEY, id: last?.id ?? null, flag: last?.data ?? null });
        }
        if (url.pathname === '/api/live/events') {
          res.writeHead(200, { 'content-type': 'text/event-stream' });
          res.flushHeaders();
          const since = Number(req.headers['last-event-id'] ?? 0);
          const backlog = standIn.events.filter((e) => e.id > since);
          res.write(
            backlog.map((e) => `id: ${e.id}\nevent: flag\ndata: ${JSON.stringify(e.data)}\n\n`).join(''),
          );
          open.add(res);
          res.on('close', () => open.delete(res));
          return undefined;
        }
        return json(404, { error: 'Not found' });
      });
      const listening = server;
      await new Promise<void>((resolve) => listening.listen(standIn.port, '127.0.0.1', resolve));
      standIn.port = (listening.address() as AddressInfo).port;
    },
    async close() {
      const closing = server;
      server = null;
      if (!closing) return;
      for (const res of open) res.destroy();
      closing.closeAllConnections();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
  return standIn;
}

function dataDir(state: Record<string, unknown>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-f1-fallback-'));
  fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ hueBridges: [], paused: false, ...state }));
  return dir;
}

const until = async (check: () => boolean, what: string, ms = 15_000) => {
  await pollFor(check, what, ms);
};

/** The flags that reached the lights, oldest first. */
function played(companion: Companion): string[] {
  return companion.log
    .recent()
    .map((entry) => /^Flag (\w+)/.exec(entry.message)?.[1])
    .filter((state): state is string => state !== undefined);
}

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

async function setUp(options: {
  server: string;
  state: Record<string, unknown>;
  sim: RunningF1LiveSim;
  sessionOverMs?: number;
}): Promise<Companion> {
  const dir = dataDir(options.state);
  const started = await startCompanion({
    server: options.server,
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
    f1Live: options.sim.hubUrl,
    f1Fallback: {
      outageMs: 500,
      ...(options.sessionOverMs !== undefined ? { sessionOverMs: options.sessionOverMs } : {}),
      client: { backoff: { initialMs: 200, maxMs: 400 }, silenceTimeoutMs: 5_000 },
    },
  });
  if (started.kind !== 'started') throw new Error('a companion already runs on the port');
  cleanup.push(async () => {
    await started.companion.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return started.companion;
}

async function startSim(options: Parameters<typeof startF1LiveSim>[0]): Promise<RunningF1LiveSim> {
  const sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0, ...options });
  cleanup.push(() => sim.close());
  return sim;
}

describe('the F1 live-timing fallback', () => {
  test(
    'server down during a session: F1 live timing drives the lights; server back: it stops, nothing plays twice',
    { timeout: paced(60_000) },
    async () => {
      const sim = await startSim({ positionMs: BEFORE_VSC_MS });
      const standIn = createStandIn();
      await standIn.listen();
      cleanup.push(() => standIn.close());
      const server = `http://127.0.0.1:${standIn.port}`;
      const companion = await setUp({
        server,
        sim,
        state: { server, token: 'tok', device: { id: 'd1', name: 'Den' } },
      });

      await until(() => played(companion).includes('green'), 'the server’s green');
      expect(companion.status().source).toBe(SOURCE_SERVER);
      expect(sim.control.state().connections).toHaveLength(0);

      await standIn.close();
      await until(() => companion.status().source === SOURCE_F1_LIVE, 'the switch to F1 live timing');
      // The snapshot sets the current state once: TrackStatus says Yellow at this point.
      await until(() => played(companion).length === 2, 'the current flag from the snapshot');
      expect(played(companion)).toEqual(['green', 'yellow']);
      expect(sim.control.state().connections).toHaveLength(1);

      // The replay moves on: VSC, VSC ending, track clear.
      sim.control.setSpeed(100);
      await until(() => played(companion).at(-1) === 'green', 'the track clear after the VSC');
      sim.control.setSpeed(0);
      expect(played(companion)).toEqual(['green', 'yellow', 'vsc', 'vsc_ending', 'green']);
      const status = companion.status();
      expect(status.f1Live).toMatchObject({ source: SOURCE_F1_LIVE, state: 'following' });
      // Only one connection for the whole outage.
      expect(sim.control.state().counts.connections).toBe(1);

      // The server returns and shows the same flag: it is not played again, and F1 is closed.
      standIn.events.push({ id: 2, data: flag('green', 'TRACK CLEAR') });
      await standIn.listen();
      await until(() => companion.status().source === SOURCE_SERVER, 'the switch back', 20_000);
      await until(() => sim.control.state().connections.length === 0, 'the F1 connection closed');
      await until(
        () => companion.log.recent().some((e) => /as F1 live timing did: not played again/.test(e.message)),
        'the server’s flag compared',
      );
      expect(played(companion)).toEqual(['green', 'yellow', 'vsc', 'vsc_ending', 'green']);
      expect(sim.control.state().counts.connections).toBe(1);
    },
  );

  test(
    'F1 live timing down too: the status page says so and it keeps trying; the snapshot then plays with the saved delay',
    { timeout: paced(60_000) },
    async () => {
      const sim = await startSim({ positionMs: BEFORE_VSC_MS, mode: 'down' });
      // A port nothing listens on: the server is unreachable from the start.
      const standIn = createStandIn();
      await standIn.listen();
      await standIn.close();
      const server = `http://127.0.0.1:${standIn.port}`;
      const companion = await setUp({
        server,
        sim,
        state: {
          server,
          token: 'tok',
          device: { id: 'd1', name: 'Den' },
          lastLiveAt: new Date(Date.now() - 60_000).toISOString(),
          preferences: preferencesDocument(2),
        },
      });

      await until(
        () => (companion.status().f1Live as { state?: string } | undefined)?.state === 'down',
        'the F1 feed reported down',
      );
      const answer = await fetch(`http://127.0.0.1:${companion.bridge.port}/api/status`);
      const json = (await answer.json()) as { source: string; f1Live: { message: string }; delayMs: number };
      expect(json.source).toBe(SOURCE_F1_LIVE);
      expect(json.f1Live.message).toMatch(/not reachable either/);
      expect(json.delayMs).toBe(2_000);
      expect(played(companion)).toEqual([]);

      sim.control.setMode('normal');
      // The current flag waits for the saved broadcast delay like any other.
      await until(() => (companion.status().pending as unknown[]).length === 1, 'the yellow scheduled');
      expect(companion.status().pending).toEqual([{ state: 'yellow', at: expect.any(String) }]);
      expect(played(companion)).toEqual([]);
      await until(() => played(companion).includes('yellow'), 'the yellow after the delay', 5_000);
      expect(companion.status().f1Live).toMatchObject({ state: 'following' });
    },
  );

  test(
    "the server's state wins when it differs from what F1 live timing showed",
    { timeout: paced(60_000) },
    async () => {
      // F1's recording says session 6821, the server 7000: the fallback's yellow stands in for the
      // server's session, so the room does not take it for a new session and end 7000 (whose red
      // would then reach no light).
      const sim = await startSim({ positionMs: BEFORE_VSC_MS });
      const standIn = createStandIn();
      await standIn.listen();
      cleanup.push(() => standIn.close());
      const server = `http://127.0.0.1:${standIn.port}`;
      const companion = await setUp({
        server,
        sim,
        state: { server, token: 'tok', device: { id: 'd1', name: 'Den' } },
      });
      await until(() => played(companion).includes('green'), 'the server’s green');
      await standIn.close();
      await until(() => played(companion).length === 2, 'the yellow from F1 live timing');
      standIn.events.push({ id: 2, data: flag('red', 'RED FLAG') });
      await standIn.listen();
      await until(() => played(companion).length === 3, 'the server’s red', 20_000);
      expect(played(companion)).toEqual(['green', 'yellow', 'red']);
      expect(companion.status().source).toBe(SOURCE_SERVER);
      await until(() => sim.control.state().connections.length === 0, 'the F1 connection closed');
    },
  );

  test(
    'F1 says the session is over: the connection is closed and not opened again',
    { timeout: paced(60_000) },
    async () => {
      // After the chequered flag: SessionStatus Finalised.
      const sim = await startSim({ positionMs: 11_600_000 });
      const standIn = createStandIn();
      await standIn.listen();
      await standIn.close();
      const server = `http://127.0.0.1:${standIn.port}`;
      const companion = await setUp({
        server,
        sim,
        sessionOverMs: 300,
        state: {
          server,
          token: 'tok',
          device: { id: 'd1', name: 'Den' },
          lastLiveAt: new Date(Date.now() - 60_000).toISOString(),
        },
      });
      await until(
        () => companion.log.recent().some((e) => /connection closed \(the session is over\)/.test(e.message)),
        'the F1 connection closed at the end of the session',
      );
      await until(() => sim.control.state().connections.length === 0, 'no F1 socket');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(sim.control.state().counts.negotiations).toBe(1);
      expect(companion.status().source).toBe(SOURCE_SERVER);
    },
  );

  test('no session followed recently: the server being down opens no F1 connection', async () => {
    const sim = await startSim({ positionMs: BEFORE_VSC_MS });
    const standIn = createStandIn();
    await standIn.listen();
    await standIn.close();
    const server = `http://127.0.0.1:${standIn.port}`;
    const companion = await setUp({
      server,
      sim,
      state: {
        server,
        token: 'tok',
        device: { id: 'd1', name: 'Den' },
        lastLiveAt: new Date(Date.now() - 24 * 3_600_000).toISOString(),
      },
    });
    await until(
      () => companion.log.recent().some((e) => /not opening F1 live timing/.test(e.message)),
      'the fallback declined',
    );
    expect(companion.status().source).toBe(SOURCE_SERVER);
    expect(sim.control.state().counts.negotiations ?? 0).toBe(0);
  });
});
