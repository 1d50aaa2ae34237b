import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { type RunningOpenF1Sim, startOpenF1Sim } from './server.js';
import { DEMO_REPLAY_FIXTURE } from './sim.js';

const REPO_PACKAGE_JSON = fileURLToPath(new URL('../../../../package.json', import.meta.url));
const RECORDING = fileURLToPath(
  new URL(`../../../data/race-control/${DEMO_REPLAY_FIXTURE}.json`, import.meta.url),
);
const START = Date.parse('2026-09-06T12:00:00Z');
/** The original session key of the 2021 Saudi Arabian Grand Prix (on packages/data's list). */
const SAUDI_SESSION_KEY = 6821;

let sim: RunningOpenF1Sim;
beforeEach(async () => {
  sim = await startOpenF1Sim({ now: () => START, mqttPort: null });
  sim.control.replay({ fixture: DEMO_REPLAY_FIXTURE, startedAt: START, speed: 0 });
});
afterEach(async () => {
  await sim.close();
});

function send(method: 'POST' | 'PUT', body: unknown): Promise<Response> {
  return fetch(`${sim.url}/_control/replays`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const cut = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);
const ATTACKS: [string, unknown, string][] = [
  ['a ../ path to a JSON file', '../../../package.json', '../../../package.json'],
  ['an absolute path', '/etc/passwd', '/etc/passwd'],
  ['a real JSON file by absolute path', REPO_PACKAGE_JSON, cut(REPO_PACKAGE_JSON)],
  ['a recording by absolute path', RECORDING, cut(RECORDING)],
  ['a known name with .json', `${DEMO_REPLAY_FIXTURE}.json`, `${DEMO_REPLAY_FIXTURE}.json`],
  ['a name with NUL', `${DEMO_REPLAY_FIXTURE}\u0000`, `${DEMO_REPLAY_FIXTURE}?`],
  ['an unknown name', 'no-such-race', 'no-such-race'],
  ['an unknown session key', 1, '1'],
];

describe('the replay control routes take only a recording on the list', () => {
  test.each(ATTACKS)(
    'POST /_control/replays with %s is 400 and changes nothing',
    async (_what, fixture, echo) => {
      const before = sim.control.replays();
      const res = await send('POST', { fixture, startedMinutesAgo: 5 });
      const text = await res.text();
      expect(res.status).toBe(400);
      expect(JSON.parse(text)).toEqual({
        error: `Unknown recording "${echo}": pick one of GET /_control/fixtures`,
      });
      expect(text).not.toMatch(/root:|"workspaces"|"messages"|ENOENT|no such file/);
      expect(sim.control.replays()).toEqual(before);
    },
  );

  test('PUT /_control/replays with one bad entry among good ones is 400 and keeps the replays', async () => {
    const before = sim.control.replays();
    const res = await send('PUT', {
      replays: [{ fixture: '2025-britain-race' }, { fixture: '/etc/passwd' }],
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: 'Unknown recording "/etc/passwd": pick one of GET /_control/fixtures',
    });
    expect(sim.control.replays()).toEqual(before);
  });

  test('the programmatic setReplays is all or nothing too', () => {
    const before = sim.control.replays();
    expect(() =>
      sim.control.setReplays([{ fixture: '2025-britain-race' }, { fixture: REPO_PACKAGE_JSON }]),
    ).toThrow(/^Unknown recording "/);
    expect(sim.control.replays()).toEqual(before);
  });

  test('a listed name, or its original session key, still starts a replay', async () => {
    const byName = await send('POST', { fixture: '2025-britain-race', startedMinutesAgo: 5 });
    expect(byName.status).toBe(201);
    expect(((await byName.json()) as { fixture: string }).fixture).toBe('2025-britain-race');
    const byKey = await send('PUT', { replays: [{ fixture: SAUDI_SESSION_KEY, startedMinutesAgo: 5 }] });
    expect(byKey.status).toBe(200);
    expect(sim.control.replays().map((r) => r.fixture)).toEqual([DEMO_REPLAY_FIXTURE]);
  });
});
