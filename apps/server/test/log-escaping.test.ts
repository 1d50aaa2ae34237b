import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { prettyFactory } from 'pino-pretty';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogger, escapeLogArguments, LOG_SERIALIZERS } from '../src/http/logging.js';
import { buildTestApp, type TestApp } from './helper.js';

// Text from outside (an upstream's error, a device's name, a race control message, a client's
// URL) in the server's log: never a line of its own, a terminal escape or a reordered line, in
// the JSON lines and in pino-pretty's development output alike.

const FORGED =
  '\n{"level":30,"time":1795000000000,"msg":"admin signed in"}\n2026-11-29T10:00:00.000Z INFO Linked as evil';
const HOSTILE = `Porch \u202eevil\u001b]0;title\u0007\u001b[2J\u0000\u009b\u2028${FORGED}`;
const ESCAPED =
  'Porch \\u{202e}evil\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{0}\\u{9b}\\u{2028}' +
  '\\n{"level":30,"time":1795000000000,"msg":"admin signed in"}\\n2026-11-29T10:00:00.000Z INFO Linked as evil';
/** Raw in a written line: a control (the newline ending it aside), a format or separator character. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/u;

function captureLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = chunk.toString();
      expect(text.endsWith('\n')).toBe(true);
      lines.push(...text.slice(0, -1).split('\n'));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info' }, { destination }) };
}

describe('outside text in the server log', () => {
  test('in a message, a field, an argument or an error, it is escaped and each call is one JSON line', () => {
    const { lines, logger } = captureLog();
    logger.warn({ detail: HOSTILE, sessionKey: 9158 }, `Flag red: ${HOSTILE}`);
    logger.info('Hue flag warning: %s', HOSTILE);
    logger.error(
      { err: Object.assign(new Error(`Home Assistant said ${HOSTILE}`), { detail: HOSTILE, status: 400 }) },
      'request failed',
    );
    logger.child({ source: 'f1-live-timing' }).warn({ err: HOSTILE }, 'f1-live: connection lost');
    logger.warn(
      { userId: 'u1', error: { kind: 'bad-request', message: HOSTILE }, ids: [HOSTILE] },
      'Hue flag step failed',
    );

    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    const [flag, warning, failed, lost, step] = lines.map(
      (line) => JSON.parse(line) as Record<string, unknown>,
    );
    expect(flag).toMatchObject({ msg: `Flag red: ${ESCAPED}`, detail: ESCAPED, sessionKey: 9158 });
    expect(warning!.msg).toBe(`Hue flag warning: ${ESCAPED}`);
    const err = failed!.err as { message: string; stack: string; detail: string; status: number };
    expect(err).toMatchObject({ message: `Home Assistant said ${ESCAPED}`, detail: ESCAPED, status: 400 });
    // The stack keeps its frames on lines of their own; the message at its head is one of them.
    const [head, ...frames] = err.stack.split('\n');
    expect(head).toBe(`Error: Home Assistant said ${ESCAPED}`);
    expect(frames.length).toBeGreaterThan(0);
    for (const frame of frames) expect(frame).toMatch(/^ {4}at /);
    expect(lost).toMatchObject({ source: 'f1-live-timing', err: ESCAPED, msg: 'f1-live: connection lost' });
    expect(step).toMatchObject({ error: { kind: 'bad-request', message: ESCAPED }, ids: [ESCAPED] });
  });

  test('pino-pretty (a development terminal) prints each call with no forged line, escape or bidi character', () => {
    const { lines, logger } = captureLog();
    logger.warn({ detail: HOSTILE }, `Flag red: ${HOSTILE}`);
    logger.error({ err: new Error(HOSTILE) }, `Hue: ${HOSTILE}`);
    const pretty = prettyFactory({ translateTime: 'HH:MM:ss', ignore: 'pid,hostname', colorize: false });
    for (const line of lines) {
      const shown = pretty(line);
      const [first, ...rest] = shown.replace(/\n$/, '').split('\n');
      expect(first).toMatch(/^\[\d\d:\d\d:\d\d\] (WARN|ERROR): (Flag red|Hue): Porch \\u\{202e\}evil/);
      expect(first).toContain('\\n2026-11-29T10:00:00.000Z INFO Linked as evil');
      // The fields and the error follow, indented under their call: nothing starts a line of its own.
      for (const next of rest) expect(next).toMatch(/^\s/);
      for (const printed of shown.replace(/\n$/, '').split('\n')) expect(printed).not.toMatch(UNSAFE);
    }
  });

  test('a client URL and Host header are escaped in the request log, secrets still redacted', () => {
    const request = {
      method: 'GET',
      url: '/api/live/stream?ticket=T-s3cr3t&x=\u202e\u0085',
      host: 'flaglight.example\u0007',
    } as unknown as FastifyRequest;
    expect(LOG_SERIALIZERS.req(request)).toMatchObject({
      url: '/api/live/stream?ticket=[redacted]&x=\\u{202e}\\u{85}',
      host: 'flaglight.example\\u{7}',
    });
  });

  test('printable arguments, numbers, errors and other objects are passed as they are', () => {
    const error = new Error('kept for the serializer');
    const fields = { userId: 'u1', count: 3, error: { kind: 'network', message: 'no answer' } };
    const args = escapeLogArguments([fields, 'shutting down', 42, error] as unknown[]);
    expect(args[0]).toBe(fields);
    expect(args.slice(1)).toEqual(['shutting down', 42, error]);
    expect(escapeLogArguments([error])[0]).toBe(error);
  });
});

describe('what Govee says, in the log', () => {
  let upstream: http.Server;
  let t: TestApp;
  const { lines, logger } = captureLog();
  beforeAll(async () => {
    upstream = http.createServer((req, res) => {
      req.resume();
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 400, msg: `${HOSTILE} ${'x'.repeat(400)}` }));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    const port = (upstream.address() as AddressInfo).port;
    t = await buildTestApp({
      env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000', GOVEE_API_URL: `http://127.0.0.1:${port}` },
      logger,
    });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) => upstream.close(() => resolve()));
  });

  test('a refused key with a hostile message: the detail is escaped and cut to 300 characters', async () => {
    const signup = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: 'govee-log@example.com',
        password: 'Sunday!Race1',
        plan: 'trial',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    const token = signup.json<{ token: string }>().token;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/govee/connect',
      headers: { authorization: `Bearer ${token}` },
      payload: { apiKey: 'demo-govee-key' },
    });
    expect(res.statusCode).toBe(502);
    for (const line of lines) expect(line).not.toMatch(UNSAFE);
    const failed = lines
      .map((line) => JSON.parse(line) as { msg: string; detail?: string })
      .find((entry) => entry.msg === 'Govee device list failed');
    expect(failed?.detail).toMatch(/^Porch \\u\{202e\}evil\\u\{1b\}\]0;title/);
    expect(failed!.detail).toContain('\\n2026-11-29T10:00:00.000Z INFO Linked as evil');
    expect(failed!.detail!.length).toBeLessThanOrEqual(300);
    expect(failed!.detail!.endsWith('…')).toBe(true);
  });
});
