import { Writable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createLogger, LOG_SERIALIZERS, REDACTED, redactSecrets } from '../src/http/logging.js';
import { buildTestApp, type TestApp } from './helper.js';

/** Every line the app logs, as written (JSON). */
function captureLog() {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { lines, logger: createLogger({ logLevel: 'info' }, { destination }) };
}

describe('secrets in the request log', () => {
  const log = captureLog();
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      logger: log.logger,
      logRequests: true,
      configure: (app) => {
        // An error whose message quotes the URL, as Fastify's own errors do.
        app.get('/test/fails', { config: { auth: 'public' } }, async (request) => {
          throw new Error(`cannot serve ${request.url}`);
        });
      },
    });
  });
  afterAll(() => t.close());

  test('tickets, OAuth codes and state, reset tokens and keys are logged as [redacted]', async () => {
    const secrets = {
      ticket: 'TICKET-s3cr3t-1',
      code: 'OAUTH-CODE-s3cr3t-2',
      state: 'OAUTH-STATE-s3cr3t-3',
      token: 'RESET-TOKEN-s3cr3t-4',
      access_token: 'ACCESS-s3cr3t-5',
      verificationToken: 'VERIFY-s3cr3t-6',
      client_secret: 'CLIENT-s3cr3t-7',
    };
    const urls = [
      `/api/live/events?sessionKey=9158&ticket=${secrets.ticket}`,
      `/api/live/stream?ticket=${secrets.ticket}`,
      `/auth/hue/callback?code=${secrets.code}&state=${secrets.state}`,
      `/sims/hue/v2/oauth2/decision?decision=deny&client_id=demo-hue-client&state=${secrets.state}&redirect_uri=http%3A%2F%2Flocalhost%2Fauth%2Fhue%2Fcallback`,
      `/auth/reset-password?token=${secrets.token}`,
      `/auth/verify-email?token=${secrets.token}`,
      `/api/health/../whatever?Access_Token=${secrets.access_token}&verificationToken=${secrets.verificationToken}`,
      `/sims/hue/v2/oauth2/token?client_secret=${secrets.client_secret}`,
      `/test/fails?ticket=${secrets.ticket}`,
    ];
    for (const url of urls) await t.app.inject({ method: 'GET', url });

    const written = log.lines.join('\n');
    expect(log.lines.filter((line) => line.includes('"url"')).length).toBeGreaterThanOrEqual(urls.length);
    for (const secret of Object.values(secrets)) expect(written).not.toContain(secret);
    expect(written).toContain(`/api/live/events?sessionKey=9158&ticket=${REDACTED}`);
    expect(written).toContain(`/auth/hue/callback?code=${REDACTED}&state=${REDACTED}`);
    expect(written).toContain(`cannot serve /test/fails?ticket=${REDACTED}`);
  });
});

test('the serializers take what they are given without throwing', () => {
  expect(LOG_SERIALIZERS.err('a string' as unknown as Error)).toBe('a string');
  expect(LOG_SERIALIZERS.req({ method: 'GET' } as FastifyRequest)).toMatchObject({
    method: 'GET',
    url: undefined,
  });
});

test('redactSecrets keeps the harmless parameters and the path', () => {
  expect(redactSecrets('/api/openf1/proxy/v1/sessions?year=2026&session_key=9158')).toBe(
    '/api/openf1/proxy/v1/sessions?year=2026&session_key=9158',
  );
  expect(redactSecrets('/x?state=a%20b&mode=signup&refresh_token=r#frag')).toBe(
    `/x?state=${REDACTED}&mode=signup&refresh_token=${REDACTED}#frag`,
  );
});
