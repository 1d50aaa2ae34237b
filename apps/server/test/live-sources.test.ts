import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { DEMO_REPLAY_FIXTURE } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { parseConfig } from '../src/config.js';
import { createLogger } from '../src/http/logging.js';
import type { FlagEvent } from '../src/live/types.js';
import { buildTestApp, type TestApp } from './helper.js';

interface SourceView {
  name: string;
  state: string;
  lastMessageAt: string | null;
  error?: string;
}

const brief = (events: FlagEvent[]) =>
  events.map((e) => [e.data.state, e.data.safetyCar ?? false, e.data.activeSectors.join()].join('/'));

describe('live sources: F1 live timing leads, OpenF1 stands by (demo mode)', () => {
  let t: TestApp;
  const events: FlagEvent[] = [];
  let unsubscribe = () => {};
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    unsubscribe();
    await t.close();
  });

  const sims = () => t.context.sims!;
  const sources = async () => {
    const response = await t.app.inject({ url: '/api/live/sources' });
    expect(response.statusCode).toBe(200);
    return response.json<SourceView[]>();
  };
  const sourceOf = async (name: string) => (await sources()).find((s) => s.name === name);
  const stateOf = async (name: string) => (await sourceOf(name))?.state;
  /** Waits for a source's state; a failure shows the whole source (its error, its last message). */
  const untilState = (name: string, state: string, timeout = 10_000) =>
    vi.waitFor(async () => expect(await sourceOf(name)).toMatchObject({ name, state }), {
      timeout: paced(timeout),
      interval: 500,
    });

  test(
    'the demo race comes through the simulated feed: F1 live timing active, OpenF1 standby',
    { timeout: paced(20_000) },
    async () => {
      // 154 minutes after the first message: the first red flag; the track clears 1.9 race minutes (5.7 s at 20×) later.
      const [replay] = sims().openf1.control.setReplays([
        { fixture: DEMO_REPLAY_FIXTURE, positionMinutes: 154.1, speed: 20 },
      ]);
      // The F1 simulator follows the OpenF1 one: same race, same session key, same moment.
      expect(sims().f1live.control.state().replay.fixture).toBe(DEMO_REPLAY_FIXTURE);
      await untilState('f1-live-timing', 'active');
      const live = await t.context.live.hub.currentLiveSession();
      expect(live?.session_key).toBe(replay!.sessionKey);
      const sub = await t.context.live.hub.subscribe(undefined, {
        onFlag: (e) => events.push(e),
        onStatus: () => {},
      });
      unsubscribe = sub.unsubscribe;
      // The snapshot may also arrive as a flag once the follower publishes it: count each id once.
      events.push(...sub.initial.filter((e) => !events.some((seen) => seen.id === e.id)));
      expect(await stateOf('openf1')).toBe('standby');
      expect(events.at(-1)?.data.state).toBe('red');
    },
  );

  test(
    'F1 live timing down: OpenF1 takes over and the next flag is not missed',
    { timeout: paced(30_000) },
    async () => {
      sims().f1live.control.setMode('down');
      await untilState('f1-live-timing', 'down', 12_000);
      expect(await stateOf('openf1')).toBe('active');
      const body = await sources();
      expect(body.find((s) => s.name === 'f1-live-timing')?.error).toEqual(expect.any(String));
      // TRACK CLEAR reaches the lights through OpenF1's race control.
      await vi.waitFor(() => expect(events.at(-1)?.data.state).toBe('green'), { timeout: paced(15_000) });
      expect(events.at(-1)?.data.cause.source).toBe('race_control');
    },
  );

  test(
    'F1 live timing back: it leads again, with no change told twice',
    { timeout: paced(30_000) },
    async () => {
      const before = events.length;
      sims().f1live.control.setMode('normal');
      await untilState('f1-live-timing', 'active', 12_000);
      expect(await stateOf('openf1')).toBe('standby');
      // Rejoining repeats nothing: the track is still clear.
      expect(events.length).toBe(before);
      // On to the second red flag (169.4–170.0 min: a double yellow, then red) at 200×, with every
      // race-control message sent twice by the F1 feed.
      sims().f1live.control.setMessageFault('duplicate');
      sims().openf1.control.setSpeed(200);
      await vi.waitFor(() => expect(events.at(-1)?.data.state).toBe('red'), { timeout: paced(15_000) });
      const told = brief(events);
      for (let i = 1; i < told.length; i += 1) expect(told[i]).not.toBe(told[i - 1]);
      // The double yellow came through both feeds and was told once.
      expect(told.filter((s) => s === 'yellow/false/3').length).toBeLessThanOrEqual(1);
    },
  );

  test(
    'a feed that goes silent (a stall) is down within 10 s, and back when it speaks again',
    { timeout: paced(40_000) },
    async () => {
      sims().f1live.control.setMode('stall');
      await untilState('f1-live-timing', 'down', 15_000);
      expect(await stateOf('openf1')).toBe('active');
      sims().f1live.control.setMode('normal');
      await untilState('f1-live-timing', 'active', 20_000);
    },
  );
});

describe('F1_LIVE_TIMING', () => {
  test('off, on, a hub URL; demo mode has it only with its own OpenF1 simulator', () => {
    const base = { DATA_DIR: '/tmp/x', FLAGLIGHT_MODE: 'demo' };
    expect(parseConfig(base).f1Live).toEqual({ url: undefined });
    expect(parseConfig({ ...base, F1_LIVE_TIMING: 'off' }).f1Live).toBeNull();
    expect(parseConfig({ ...base, OPENF1_BASE_URL: 'http://127.0.0.1:9/x' }).f1Live).toBeNull();
    expect(parseConfig({ ...base, F1_LIVE_TIMING: 'http://127.0.0.1:9/signalrcore/' }).f1Live).toEqual({
      url: 'http://127.0.0.1:9/signalrcore',
    });
    const live = {
      ...base,
      FLAGLIGHT_MODE: 'live',
      APP_SECRET: 'x'.repeat(32),
      TURNSTILE_SECRET_KEY: 'x',
      TURNSTILE_SITE_KEY: 'x',
    };
    expect(parseConfig(live).f1Live).toEqual({ url: 'https://livetiming.formula1.com/signalrcore' });
    expect(() => parseConfig({ ...base, F1_LIVE_TIMING: 'sometimes' })).toThrow(
      'Invalid configuration: F1_LIVE_TIMING must be off, on, or an http(s) URL of the live-timing hub',
    );
  });
});

describe('live sources: what an upstream says stays in the log', () => {
  // A load balancer's error page: HTML, far longer than any answer should be, with a forged log
  // line, a bidi override and a screen clear in it.
  const FORGED = '\u202e\r\n2026-11-29T10:00:00.000Z INFO Linked as evil\u001b[2J';
  const PAGE = `<!DOCTYPE html><html><head><title>503 Service Unavailable</title>${FORGED}</head><body>${'<p>The server is temporarily unable to service your request.</p>'.repeat(4_000)}</body></html>`;
  let upstream: http.Server;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      if ((req.url ?? '').startsWith('/signalrcore/negotiate')) {
        res.writeHead(503, { 'content-type': 'text/html' });
        return res.end(PAGE);
      }
      // OpenF1 failing with its own reason phrase and an HTML body.
      res.writeHead(500, `<b>Internal</b> ${'x'.repeat(2_000)}`, { 'content-type': 'text/html' });
      return res.end(PAGE);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    t = await buildTestApp({
      env: { F1_LIVE_TIMING: `${origin}/signalrcore`, OPENF1_BASE_URL: origin },
      logger: createLogger({ logLevel: 'info' }, { destination }),
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  test(
    'F1 live timing answering negotiate with 503 and a large HTML page, OpenF1 with 500: short own words, no markup, at most 200 characters',
    { timeout: paced(20_000) },
    async () => {
      let body: SourceView[] = [];
      await vi.waitFor(
        async () => {
          const response = await t.app.inject({ url: '/api/live/sources' });
          expect(response.statusCode).toBe(200);
          body = response.json<SourceView[]>();
          expect(body.find((s) => s.name === 'f1-live-timing')?.error).toBeDefined();
          expect(body.find((s) => s.name === 'openf1')?.error).toBeDefined();
        },
        { timeout: paced(10_000), interval: 250 },
      );
      expect(body).toEqual([
        {
          name: 'f1-live-timing',
          state: 'down',
          lastMessageAt: null,
          error: 'F1 live timing refused the connection (503)',
        },
        {
          name: 'openf1',
          state: 'down',
          lastMessageAt: null,
          error: 'OpenF1 API request failed: 500 Internal Server Error',
        },
      ]);
      for (const source of body) {
        expect(source.error!.length).toBeLessThanOrEqual(200);
        expect(source.error).not.toMatch(/[<>]|xxx/);
      }
      // The server's log has what F1 said, cut short.
      const lost = lines.map((line) => JSON.parse(line)).find((l) => l.msg === 'f1-live: connection lost');
      expect(lost).toMatchObject({ reason: 'F1 live timing refused the connection (503)' });
      expect(lost.err).toContain('503 Service Unavailable');
      expect(lost.err.length).toBeLessThanOrEqual(300);
      expect(lost.err).toContain('\\u{202e}\\r\\n2026-11-29T10:00:00.000Z INFO Linked as evil\\u{1b}[2J');
      expect(Math.max(...lines.map((line) => line.length))).toBeLessThan(4_000);
      for (const line of lines) expect(line).not.toMatch(/[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u);
    },
  );
});
