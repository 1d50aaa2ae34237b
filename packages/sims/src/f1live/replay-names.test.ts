import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { connected } from '../../test/f1live-socket.js';
import { listRecordingNames } from '../shared/recording-names.js';
import { type RunningF1LiveSim, startF1LiveSim } from './server.js';
import { createF1LiveSim } from './sim.js';

const REPO_PACKAGE_JSON = fileURLToPath(new URL('../../../../package.json', import.meta.url));
const RECORDING = fileURLToPath(
  new URL('../../../data/race-control/2021-saudi-arabia-race.json', import.meta.url),
);
/** Text that only a file's content (or a file-system error) would bring into an answer. */
const LEAKS = [
  /root:/,
  /"name"\s*:/,
  /"workspaces"/,
  /live_timing|race_control_stream/,
  /ENOENT|EACCES|EISDIR|no such file/i,
  /Unexpected token|JSON/,
];
/** A name as an error repeats it: at most 40 characters, then an ellipsis. */
const cut = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

let sim: RunningF1LiveSim | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

function postReplay(base: string, body: unknown): Promise<Response> {
  return fetch(`${base}/_control/replay`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const ATTACKS: [string, unknown, string][] = [
  ['a ../ path to a JSON file', '../../../package.json', '../../../package.json'],
  [
    'a ../ path without .json',
    '../race-control/2021-saudi-arabia-race',
    '../race-control/2021-saudi-arabia-race',
  ],
  [
    'a deep ../ path to /etc/passwd',
    '../../../../../../../../etc/passwd',
    '../../../../../../../../etc/passwd',
  ],
  ['an absolute path', '/etc/passwd', '/etc/passwd'],
  ['a real JSON file by absolute path', REPO_PACKAGE_JSON, cut(REPO_PACKAGE_JSON)],
  ['a recording by absolute path', RECORDING, cut(RECORDING)],
  ['a known name with .json', '2021-saudi-arabia-race.json', '2021-saudi-arabia-race.json'],
  ['a backslash path', '..\\..\\..\\package.json', '..\\..\\..\\package.json'],
  ['a name with NUL', '2021-saudi-arabia-race\u0000', '2021-saudi-arabia-race?'],
  ['an unknown name', 'no-such-race', 'no-such-race'],
  ['a number', 42, '42'],
  ['a list', ['2021-saudi-arabia-race'], ''],
];

describe('POST /_control/replay takes only a name on the recordings list', () => {
  test.each(ATTACKS)(
    '%s is 400, reads nothing and leaves the replay as it was',
    async (_what, fixture, echo) => {
      sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0, positionMs: 60_000 });
      const socket = await connected(sim, ['TrackStatus']);
      const before = sim.control.state().replay;

      const res = await postReplay(sim.url, { fixture, speed: 0 });
      const text = await res.text();

      expect(res.status).toBe(400);
      expect(JSON.parse(text)).toEqual({
        error: `Unknown recording "${echo}": pick one of GET /_control/fixtures`,
      });
      for (const leak of LEAKS) expect(text).not.toMatch(leak);
      expect(sim.control.state().replay).toEqual(before);
      expect(socket.ws.readyState).toBe(socket.ws.OPEN);
      socket.ws.close();
    },
  );

  test('a long name comes back cut to 40 characters, printable only', async () => {
    sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
    const res = await postReplay(sim.url, { fixture: `\u001b[31m"${'x'.repeat(500)}` });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: `Unknown recording "?[31m'${'x'.repeat(34)}…": pick one of GET /_control/fixtures`,
    });
  });

  test('a listed name still starts its replay, and GET /_control/fixtures lists every name', async () => {
    sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
    const listed = (await (await fetch(`${sim.url}/_control/fixtures`)).json()) as { id: string }[];
    expect(listed.map((f) => f.id)).toEqual(listRecordingNames());
    expect(listed.map((f) => f.id)).toContain('2025-britain-race');
    const res = await postReplay(sim.url, { fixture: '2025-britain-race', speed: 0 });
    expect(res.status).toBe(200);
    expect(sim.control.state().replay.fixture).toBe('2025-britain-race');
  });

  test('the programmatic replay refuses a path too, without reading it', () => {
    const s = createF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
    try {
      expect(() => s.control.replay({ fixture: REPO_PACKAGE_JSON })).toThrow(/^Unknown recording "/);
      expect(() => s.control.replay({ fixture: RECORDING })).toThrow(/^Unknown recording "/);
      expect(s.control.state().replay.fixture).toBe('2021-saudi-arabia-race');
      expect(() => createF1LiveSim({ fixture: '/etc/passwd' })).toThrow(/^Unknown recording "\/etc\/passwd"/);
    } finally {
      void s.close();
    }
  });

  test('mounted under /sims/f1live, the error names the listing route under the prefix', async () => {
    const f1live = createF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
    const app = Fastify({ forceCloseConnections: true });
    await app.register(f1live.plugin, { prefix: '/sims/f1live' });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const res = await postReplay(`${origin}/sims/f1live`, { fixture: '/etc/passwd' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        error: 'Unknown recording "/etc/passwd": pick one of GET /sims/f1live/_control/fixtures',
      });
      expect((await fetch(`${origin}/sims/f1live/_control/fixtures`)).status).toBe(200);
      expect(f1live.control.state().replay.fixture).toBe('2021-saudi-arabia-race');
    } finally {
      await app.close();
    }
  });
});
