import { inflateRawSync } from 'node:zlib';
import Fastify from 'fastify';
import { afterEach, describe, expect, test } from 'vitest';
import { connected, negotiate, open, type Socket, until } from '../../test/f1live-socket.js';
import { RS } from './protocol.js';
import { loadRecording, parseStreamOffset } from './recording.js';
import { type RunningF1LiveSim, startF1LiveSim, type StartF1LiveSimOptions } from './server.js';
import { createF1LiveSim } from './sim.js';

let sim: RunningF1LiveSim | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function start(options: StartF1LiveSimOptions = {}): Promise<RunningF1LiveSim> {
  sim = await startF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0, ...options });
  return sim;
}

describe('negotiate', () => {
  test('OPTIONS and POST set both sticky cookies; POST answers the v1 negotiate JSON', async () => {
    const s = await start();
    const pre = await fetch(`${s.hubUrl}/negotiate?negotiateVersion=1`, { method: 'OPTIONS' });
    expect(pre.status).toBe(204);
    expect(pre.headers.getSetCookie().map((c) => c.split('=')[0])).toEqual(['AWSALBCORS', 'AWSALB']);
    expect(pre.headers.getSetCookie()[0]).toMatch(/; Path=\/; SameSite=None; Secure$/);
    const { body, token } = await negotiate(s);
    expect(body).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: token,
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text', 'Binary'] }],
    });
  });

  test('GET is 405, the classic /signalr/negotiate 401', async () => {
    const s = await start();
    expect((await fetch(`${s.hubUrl}/negotiate?negotiateVersion=1`)).status).toBe(405);
    expect((await fetch(`${s.url}/signalr/negotiate?clientProtocol=1.5`)).status).toBe(401);
  });

  test('down: negotiate answers 503', async () => {
    const s = await start({ mode: 'down' });
    expect((await fetch(`${s.hubUrl}/negotiate?negotiateVersion=1`, { method: 'POST' })).status).toBe(503);
  });
});

describe('throttle', () => {
  test('negotiate answers 429 with Retry-After, and normal again after', async () => {
    const s = await start({ mode: 'throttle' });
    const res = await fetch(`${s.hubUrl}/negotiate?negotiateVersion=1`, { method: 'POST' });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('5');
    s.control.setMode('normal');
    await negotiate(s);
  });
});

describe('upgrade', () => {
  test('a missing or unknown token is 404, a reused one 409', async () => {
    const s = await start();
    await expect(open(s, '')).rejects.toThrow('HTTP 404');
    await expect(open(s, 'nope')).rejects.toThrow('HTTP 404');
    const { token } = await negotiate(s);
    const first = await open(s, token);
    await expect(open(s, token)).rejects.toThrow('HTTP 409');
    first.ws.close();
  });

  test('strict mode refuses an upgrade without the sticky cookie, and reads one with attributes', async () => {
    const s = await start({ requireCookie: true });
    const a = await negotiate(s);
    await expect(open(s, a.token)).rejects.toThrow('HTTP 404');
    const b = await negotiate(s);
    const socket = await open(s, b.token, {
      Cookie: `AWSALBCORS=x; Path=/; SameSite=None; Secure; ${b.cookie}; Path=/`,
    });
    socket.ws.close();
    expect(s.control.state().counts['refused-no-cookie']).toBe(1);
  });
});

describe('handshake and subscribe', () => {
  test('a bad protocol gets an error frame and a close', async () => {
    const s = await start();
    const { token } = await negotiate(s);
    const socket = await open(s, token);
    socket.ws.send(`{"protocol":"messagepack","version":1}${RS}`);
    await socket.closed;
    expect(socket.frames()[0]).toEqual({ error: expect.stringContaining('messagepack') });
  });

  test('a frame before the handshake closes the socket', async () => {
    const s = await start();
    const { token } = await negotiate(s);
    const socket = await open(s, token);
    socket.ws.send(`{"type":6}${RS}`);
    await socket.closed;
    expect(socket.messages).toEqual([]);
  });

  test('the handshake is answered {}; Subscribe completes with the requested topics only, keyframed', async () => {
    const s = await start({ positionMs: parseStreamOffset('02:30:00')! });
    const socket = await connected(s, [
      'TrackStatus',
      'RaceControlMessages',
      'SessionInfo',
      'CarData.z',
      'Nope',
    ]);
    const [handshake, completion] = socket.frames() as [unknown, Record<string, unknown>];
    expect(handshake).toEqual({});
    expect(completion.invocationId).toBe('0');
    const result = completion.result as Record<string, Record<string, unknown>>;
    expect(Object.keys(result).sort()).toEqual(['RaceControlMessages', 'SessionInfo', 'TrackStatus']);
    expect(result.TrackStatus!._kf).toBe(true);
    expect(Array.isArray(result.RaceControlMessages!.Messages)).toBe(true);
    expect(result.SessionInfo).toMatchObject({ Key: 6821, Meeting: { Key: 1106 }, Type: 'Race', _kf: true });
    socket.ws.close();
  });

  test('gated .z topics come deflated with an Authorization header', async () => {
    const s = await start();
    const socket = await connected(s, ['CarData.z'], { Authorization: 'Bearer token' });
    const completion = socket.frames()[1] as { result: Record<string, string> };
    const inflated = JSON.parse(
      inflateRawSync(Buffer.from(completion.result['CarData.z']!, 'base64')).toString('utf8'),
    ) as unknown;
    expect(inflated).toEqual({ Entries: [], _kf: true });
    socket.ws.close();
  });

  test('an unknown hub method completes with an error', async () => {
    const s = await start();
    const socket = await connected(s, ['TrackStatus']);
    socket.ws.send(JSON.stringify({ type: 1, invocationId: '1', target: 'Unsubscribe', arguments: [] }) + RS);
    await until(() => socket.frames().length === 3);
    expect(socket.frames()[2]).toEqual({
      type: 3,
      invocationId: '1',
      error: "Unknown hub method 'Unsubscribe'",
    });
    socket.ws.close();
  });
});

describe('feed', () => {
  test('replays the recording as feed frames, several per message, RCM updates keyed by index', async () => {
    const s = await start();
    const socket = await connected(s, ['TrackStatus', 'RaceControlMessages', 'SessionStatus']);
    s.control.setSpeed(50_000);
    const recording = loadRecording('2021-saudi-arabia-race');
    const expected = recording.events.filter((e) => e.offsetMs > 0).length;
    const feeds = () =>
      socket.frames().filter((f) => (f as { target?: string }).target === 'feed') as {
        arguments: [string, Record<string, unknown>, string];
      }[];
    await until(() => feeds().length === expected, 5000);
    expect(socket.messages.some((m) => m.split(RS).length > 2)).toBe(true);
    expect(socket.messages.every((m) => m.endsWith(RS))).toBe(true);
    const rcm = feeds().filter((f) => f.arguments[0] === 'RaceControlMessages');
    expect(rcm[0]!.arguments[1]).toEqual({
      Messages: { '0': recording.events.find((e) => e.index === 0)!.value },
    });
    expect(rcm.map((f) => Object.keys(f.arguments[1].Messages as object)[0])).toEqual(
      recording.events.filter((e) => e.topic === 'RaceControlMessages').map((e) => String(e.index)),
    );
    expect(feeds()[0]!.arguments[2]).toMatch(/^2021-12-05T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    socket.ws.close();
  });

  test('pings every interval; stall sends nothing; a close frame on demand', async () => {
    const s = await start({ pingIntervalMs: 50, heartbeatIntervalMs: 60_000 });
    const socket = await connected(s, ['TrackStatus']);
    await until(() => socket.frames().some((f) => (f as { type?: number }).type === 6));
    s.control.setMode('stall');
    const before = socket.messages.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(socket.messages.length).toBe(before);
    s.control.setMode('normal');
    expect(s.control.closeAll({ error: 'maintenance' })).toBe(1);
    await socket.closed;
    expect(socket.frames().at(-1)).toEqual({ type: 7, error: 'maintenance', allowReconnect: true });
  });

  test('a close while a connection is still in its handshake sends no Close message first', async () => {
    const s = await start();
    const { token, cookie } = await negotiate(s);
    const socket = await open(s, token, { Cookie: cookie });
    await until(() => s.control.state().connections.length === 1);
    // A new session (the demo race restarting) closes every connection, this one before its handshake.
    expect(s.control.closeAll({ error: 'a new session', allowReconnect: true })).toBe(1);
    await socket.closed;
    // A real hub's first answer is the handshake response; anything else fails the client's start.
    expect(socket.messages).toEqual([]);
  });

  test('down closes open sockets', async () => {
    const s = await start();
    const socket = await connected(s, ['TrackStatus']);
    s.control.setMode('down');
    await socket.closed;
    expect(s.control.state().connections).toEqual([]);
  });
});

describe('race-control message faults', () => {
  const rcmIndices = (socket: Socket) =>
    (socket.frames() as { target?: string; arguments?: [string, { Messages?: object }] }[])
      .filter((f) => f.target === 'feed' && f.arguments?.[0] === 'RaceControlMessages')
      .map((f) => Object.keys(f.arguments![1].Messages ?? {})[0]);

  test('duplicate sends each message twice; reorder sends each behind the next', async () => {
    const s = await start();
    const socket = await connected(s, ['RaceControlMessages']);
    s.control.setMessageFault('duplicate');
    s.control.setSpeed(2_000);
    await until(() => rcmIndices(socket).length >= 6, 5000);
    const dup = rcmIndices(socket).slice(0, 6);
    expect(dup[0]).toBe(dup[1]);
    expect(dup[2]).toBe(dup[3]);
    s.control.setMessageFault('reorder');
    const before = rcmIndices(socket).length;
    await until(() => rcmIndices(socket).length >= before + 4, 5000);
    const [a, b] = rcmIndices(socket)
      .slice(before, before + 2)
      .map(Number);
    expect(a).toBeGreaterThan(b!);
    socket.ws.close();
  });

  test('a bad message fault is 400 through the control route', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/_control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ messageFault: 'shuffle' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'messageFault must be one of none, duplicate, reorder' });
  });
});

describe('mirror', () => {
  test('another replay: its keys in SessionInfo, its moment now, feed times moved to the present', async () => {
    const s = await start();
    const recording = loadRecording('2021-saudi-arabia-race');
    const red = recording.events.find((e) => e.topic === 'TrackStatus' && e.value.Status === '5')!;
    // Show the recording one second before its first red flag.
    s.control.mirror({
      fixture: '2021-saudi-arabia-race',
      sessionKey: 100_007,
      meetingKey: 100_006,
      originalAtMs: recording.streamStartMs + red.offsetMs - 1_000,
      speed: 1,
    });
    const socket = await connected(s, ['SessionInfo', 'TrackStatus', 'RaceControlMessages']);
    const completion = socket.frames().find((f) => (f as { type?: number }).type === 3) as {
      result: Record<string, Record<string, unknown>>;
    };
    expect(completion.result.SessionInfo).toMatchObject({ Key: 100_007, Meeting: { Key: 100_006 } });
    expect(completion.result.TrackStatus?.Status).not.toBe('5');
    const feeds = () =>
      (
        socket.frames() as { target?: string; arguments?: [string, Record<string, unknown>, string] }[]
      ).filter((f) => f.target === 'feed' && f.arguments?.[0] === 'TrackStatus');
    await until(() => feeds().some((f) => f.arguments![1].Status === '5'), 3000);
    const feedTime = Date.parse(feeds().find((f) => f.arguments![1].Status === '5')!.arguments![2]);
    expect(Math.abs(feedTime - Date.now())).toBeLessThan(2_000);
    s.control.mirror(null);
    await socket.closed;
    socket.ws.close();
  });
});

describe('control routes', () => {
  test('GET shows the state; POST sets the mode; a bad one is 400', async () => {
    const s = await start();
    const state = (await (await fetch(`${s.url}/_control`)).json()) as Record<string, unknown>;
    expect(state).toMatchObject({ mode: 'normal', replay: { fixture: '2021-saudi-arabia-race', speed: 0 } });
    const post = (body: unknown) =>
      fetch(`${s.url}/_control`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post({ mode: 'stall' })).status).toBe(200);
    expect(s.control.state().mode).toBe('stall');
    expect((await post({ mode: 'broken' })).status).toBe(400);
    const replay = await fetch(`${s.url}/_control/replay`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fixture: '2025-britain-race', position: '01:00:00', speed: 0 }),
    });
    expect(((await replay.json()) as { replay: unknown }).replay).toMatchObject({
      fixture: '2025-britain-race',
      position: '01:00:00.000',
    });
  });
});

describe('recordings', () => {
  test('every stream line becomes an event, in non-decreasing offset order', () => {
    const r = loadRecording('2025-miami-sprint');
    expect(r.events.filter((e) => e.topic === 'RaceControlMessages')).toHaveLength(107);
    expect(r.events.filter((e) => e.topic === 'TrackStatus')).toHaveLength(27);
    expect(r.events.filter((e) => e.topic === 'SessionStatus')).toHaveLength(5);
    for (let i = 1; i < r.events.length; i += 1) {
      expect(r.events[i]!.offsetMs).toBeGreaterThanOrEqual(r.events[i - 1]!.offsetMs);
    }
    expect(r.sessionInfo).toMatchObject({ Key: 10028, Type: 'Race', Name: 'Sprint', GmtOffset: '-04:00:00' });
  });

  test('an unknown fixture is refused', () => {
    expect(() => loadRecording('../etc/passwd')).toThrow('Unknown recording');
    expect(() => loadRecording('no-such-session')).toThrow('Unknown recording');
  });
});

describe('mounted under a prefix', () => {
  test('negotiate, upgrade and control live under the prefix; other upgrades are left alone', async () => {
    const f1live = createF1LiveSim({ fixture: '2021-saudi-arabia-race', speed: 0 });
    const app = Fastify({ forceCloseConnections: true });
    await app.register(f1live.plugin, { prefix: '/sims/f1live' });
    const origin = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const mounted = { url: `${origin}/sims/f1live`, hubUrl: `${origin}/sims/f1live/signalrcore` };
      const socket = await connected(mounted, ['TrackStatus']);
      expect(socket.frames()[0]).toEqual({});
      expect((await fetch(`${origin}/sims/f1live/_control`)).status).toBe(200);
      expect(
        (await fetch(`${origin}/signalrcore/negotiate?negotiateVersion=1`, { method: 'POST' })).status,
      ).toBe(404);
      socket.ws.close();
    } finally {
      await app.close();
    }
  });
});
