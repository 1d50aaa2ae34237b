import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type RunningF1LiveSim,
  loadF1LiveRecording,
  startF1LiveSim,
  type StartF1LiveSimOptions,
} from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import {
  createF1LiveClient,
  type F1LiveClient,
  type F1LiveClientOptions,
  type F1LiveEvents,
} from '../src/index.js';

/** Every recording in packages/data (the shared fixtures with complete live-timing streams). */
const BUNDLED = readdirSync(fileURLToPath(new URL('../../data/race-control/', import.meta.url)))
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5));

let sim: RunningF1LiveSim | null = null;
let client: F1LiveClient | null = null;

afterEach(async () => {
  await client?.stop();
  await sim?.close();
  client = null;
  sim = null;
});

type Logged = { [K in keyof F1LiveEvents]: { event: K; payload: F1LiveEvents[K] } }[keyof F1LiveEvents];

async function setup(
  simOptions: StartF1LiveSimOptions,
  clientOptions: Partial<F1LiveClientOptions> = {},
): Promise<{ s: RunningF1LiveSim; c: F1LiveClient; log: Logged[] }> {
  sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0, ...simOptions });
  const c = createF1LiveClient({ baseUrl: sim.hubUrl, ...clientOptions });
  client = c;
  const log: Logged[] = [];
  for (const event of ['trackStatus', 'raceControl', 'sessionStatus', 'sessionInfo', 'state'] as const) {
    c.on(event, (payload) => log.push({ event, payload } as Logged));
  }
  c.start();
  return { s: sim, c, log };
}

/** Waits for `check` (its ceiling `ms` stretched, paced); says how long it took, for the figures. */
async function until(check: () => boolean, ms = 5000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > paced(ms)) throw new Error(`timed out after ${paced(ms)} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

const connected = (c: F1LiveClient) => () => c.state().connection === 'connected';
const of = <K extends keyof F1LiveEvents>(log: Logged[], event: K) =>
  log.filter((l) => l.event === event).map((l) => l.payload as F1LiveEvents[K]);

describe('snapshot then feed', () => {
  test.each(BUNDLED)(
    '%s at high speed: the exact TrackStatus and race-control sequence, in order',
    { timeout: paced(20_000) },
    async (fixture) => {
      const { s, c, log } = await setup({ fixture, requireCookie: true });
      await until(connected(c));
      const recording = loadF1LiveRecording(fixture);
      const total = recording.events.length;
      s.control.setSpeed(20_000);
      await until(
        () =>
          of(log, 'raceControl').length + of(log, 'trackStatus').length + of(log, 'sessionStatus').length >=
          total,
        10_000,
      );
      await new Promise((r) => setTimeout(r, 100));

      // The snapshot at position 0: the session status, the messages and the track status at
      // offset 0 (the simulator's defaults, Inactive and AllClear, where the recording has none yet;
      // a recording without TrackStatus lines has no TrackStatus topic at all).
      const label = (e: (typeof recording.events)[number]) =>
        e.topic === 'RaceControlMessages'
          ? `RCM ${e.index} ${String(e.value.Message)}`
          : e.topic === 'TrackStatus'
            ? `TS ${String(e.value.Status)}`
            : `SS ${String(e.value.Status)}`;
      const atStart = recording.events.filter((e) => e.offsetMs <= 0);
      const lastAtStart = (topic: string, fallback: string) =>
        (atStart.filter((e) => e.topic === topic).at(-1)?.value.Status as string | undefined) ?? fallback;
      const expected = [
        `SS ${lastAtStart('SessionStatus', 'Inactive')}`,
        ...atStart.filter((e) => e.topic === 'RaceControlMessages').map(label),
        ...(recording.events.some((e) => e.topic === 'TrackStatus')
          ? [`TS ${lastAtStart('TrackStatus', '1')}`]
          : []),
        ...recording.events.filter((e) => e.offsetMs > 0).map(label),
      ];
      const seen = log.flatMap((l) => {
        if (l.event === 'raceControl') return [`RCM ${l.payload.index} ${l.payload.message.message}`];
        if (l.event === 'trackStatus') return [`TS ${l.payload.status}`];
        if (l.event === 'sessionStatus') return [`SS ${l.payload.status}`];
        return [];
      });
      expect(seen).toEqual(expected);

      const fixtureFile = recording.events.filter((e) => e.topic === 'RaceControlMessages');
      const messages = of(log, 'raceControl');
      expect(messages.map((m) => m.index)).toEqual(fixtureFile.map((e) => e.index));
      expect(messages.every((m) => m.message.session_key === recording.sessionInfo.Key)).toBe(true);
      const feed = messages.filter((m) => m.source === 'feed');
      expect(feed.length).toBeGreaterThan(0);
      expect(feed.every((m) => typeof m.feedTime === 'string' && m.receivedAt > 0)).toBe(true);
      // Strict mode: the upgrade carried the negotiate's sticky cookie, or it would have been refused.
      expect(c.cookies()).toHaveProperty('AWSALB');
      expect(s.control.state().counts['refused-no-cookie']).toBeUndefined();
    },
  );

  test('a race-control record is converted to the OpenF1 shape', async () => {
    const { s, c, log } = await setup({ positionMs: 60 * 60_000 });
    await until(connected(c));
    s.control.setSpeed(1000);
    await until(() => of(log, 'raceControl').some((m) => m.message.flag === 'GREEN' && m.source === 'feed'));
    const green = of(log, 'raceControl').find((m) => m.message.flag === 'GREEN' && m.source === 'feed')!;
    expect(green.message).toEqual({
      date: '2021-12-05T17:33:45+00:00',
      session_key: 6821,
      meeting_key: 1106,
      driver_number: null,
      lap_number: 1,
      category: 'Flag',
      flag: 'GREEN',
      scope: 'Track',
      sector: null,
      message: 'GREEN LIGHT - PIT EXIT OPEN',
      qualifying_phase: null,
    });
    expect(green.record).toMatchObject({ Utc: '2021-12-05T17:33:45', Category: 'Flag' });
  });
});

describe('reconnecting', () => {
  test('down → reconnecting/down; back within seconds of normal', { timeout: paced(25_000) }, async () => {
    const { s, c } = await setup({});
    await until(connected(c));
    s.control.setMode('down');
    await until(() => c.state().connection !== 'connected');
    expect(['reconnecting', 'down']).toContain(c.state().connection);
    expect(c.state().error).toBeTruthy();
    await new Promise((r) => setTimeout(r, 1500));
    expect(['reconnecting', 'down']).toContain(c.state().connection);
    s.control.setMode('normal');
    const back = await until(connected(c), 15_000);
    console.log(`f1-live: back ${back} ms after the simulator returned (down for 1.5 s, default back-off)`);
    expect(c.state().error).toBeUndefined();
  });

  test('stall → the watchdog reconnects after its timeout', { timeout: paced(20_000) }, async () => {
    const { s, c, log } = await setup(
      { pingIntervalMs: 200 },
      { silenceTimeoutMs: 1000, backoff: { initialMs: 200 } },
    );
    await until(connected(c));
    s.control.setMode('stall');
    const lostAfter = await until(() => c.state().connection !== 'connected', 5000);
    console.log(`f1-live: stall noticed after ${lostAfter} ms (silence timeout 1000 ms)`);
    expect(lostAfter).toBeGreaterThanOrEqual(900);
    s.control.setMode('normal');
    const back = await until(connected(c), 10_000);
    console.log(`f1-live: back ${back} ms after the stall ended`);
    expect(s.control.state().counts.connections).toBeGreaterThanOrEqual(2);
    expect(of(log, 'state').map((st) => st.connection)).toContain('reconnecting');
  });

  test(
    'a reconnect mid-session re-emits no old message and no unchanged TrackStatus; new ones once',
    { timeout: paced(30_000) },
    async () => {
      const { s, c, log } = await setup({ positionMs: 137 * 60_000 });
      await until(connected(c));
      const before = log.length;
      const messagesBefore = of(log, 'raceControl').length;
      expect(messagesBefore).toBeGreaterThan(10);

      s.control.closeAll({ error: 'maintenance', allowReconnect: true });
      await until(() => c.state().connection !== 'connected');
      await until(connected(c), 10_000);
      const newEvents = log.slice(before).filter((l) => l.event !== 'state' && l.event !== 'sessionInfo');
      expect(newEvents).toEqual([]);

      // While it is away, the race moves on (the safety car comes out): only that arrives, once.
      s.control.setMode('down');
      await until(() => c.state().connection !== 'connected');
      s.control.setSpeed(10_000);
      await new Promise((r) => setTimeout(r, 200));
      s.control.setSpeed(0);
      s.control.setMode('normal');
      await until(connected(c), 15_000);
      const messages = of(log, 'raceControl');
      const indices = messages.map((m) => m.index);
      expect(new Set(indices).size).toBe(indices.length);
      const fresh = messages.slice(messagesBefore);
      expect(fresh.length).toBeGreaterThan(0);
      expect(fresh.every((m) => m.source === 'snapshot')).toBe(true);
      expect(fresh[0]!.index).toBe(messagesBefore);
      const track = of(log, 'trackStatus');
      for (let i = 1; i < track.length; i += 1) {
        if (track[i]!.source === 'snapshot') expect(track[i]!.status).not.toBe(track[i - 1]!.status);
      }
    },
  );

  test(
    'garbage frames do not crash it; it is connected and right once the feed is normal',
    { timeout: paced(20_000) },
    async () => {
      const { s, c } = await setup(
        { positionMs: 137 * 60_000, heartbeatIntervalMs: 100 },
        { backoff: { initialMs: 100, maxMs: 200 } },
      );
      await until(connected(c));
      s.control.setMode('garbage');
      await new Promise((r) => setTimeout(r, 1500));
      expect(s.control.state().counts['garbage-bursts']).toBeGreaterThan(1);
      s.control.setMode('normal');
      await until(connected(c), 10_000);
      s.control.setSpeed(1000);
      // The normal feed's next TrackStatus puts right what a garbage frame left there: within 300 ms
      // on an idle machine, not always on a loaded one, so it is waited for.
      const status = () => (c.topic('TrackStatus') as { Status?: unknown } | undefined)?.Status;
      await until(() => ['1', '2', '4', '5', '6', '7'].includes(String(status())), 5_000).catch(() => {
        throw new Error(`TrackStatus is still ${JSON.stringify(c.topic('TrackStatus'))}`);
      });
      const messages = c.topic('RaceControlMessages') as { Messages: unknown[] };
      expect(Array.isArray(messages.Messages)).toBe(true);
    },
  );

  test('a close frame with allowReconnect: it comes back', { timeout: paced(15_000) }, async () => {
    const { s, c } = await setup({});
    await until(connected(c));
    s.control.closeAll({ error: 'restart', allowReconnect: true });
    await until(() => c.state().connection !== 'connected');
    const back = await until(connected(c), 10_000);
    console.log(`f1-live: back ${back} ms after a close frame`);
  });

  test(
    'a new session on the feed starts afresh: its messages are emitted from index 0',
    { timeout: paced(15_000) },
    async () => {
      const { s, c, log } = await setup({ positionMs: 137 * 60_000 });
      await until(connected(c));
      const before = log.length;
      s.control.replay({ fixture: '2025-britain-race', positionMs: 60 * 60_000, speed: 0 });
      await until(() => of(log, 'sessionInfo').some((i) => i.sessionKey === 9947));
      await until(connected(c));
      const after = log.slice(before);
      const messages = after.filter((l) => l.event === 'raceControl').map((l) => l.payload);
      expect(messages[0]!.index).toBe(0);
      expect(messages.every((m) => m.message.session_key === 9947)).toBe(true);
      expect(c.sessionKeys()).toEqual({ sessionKey: 9947, meetingKey: 1277 });
      expect(after.some((l) => l.event === 'trackStatus')).toBe(true);
    },
  );

  test('stop() ends it for good', async () => {
    const { s, c } = await setup({});
    await until(connected(c));
    await c.stop();
    expect(c.state().connection).toBe('down');
    await new Promise((r) => setTimeout(r, 200));
    expect(s.control.state().connections).toEqual([]);
  });
});

describe('.z topics', () => {
  test('a deflated topic is inflated into its state', async () => {
    const { c } = await setup(
      { heartbeatIntervalMs: 50 },
      { topics: ['Heartbeat', 'CarData.z'], headers: { Authorization: 'Bearer test' } },
    );
    await until(connected(c));
    await until(() => {
      const data = c.topic('CarData') as { Entries?: { Utc: string }[] } | undefined;
      return (data?.Entries?.length ?? 0) > 0;
    });
    expect((c.topic('CarData') as { Entries: { Utc: string }[] }).Entries[0]!.Utc).toMatch(/^2021-12-05T/);
  });
});
