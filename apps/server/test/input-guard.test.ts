import { hasControlCharacters, isWellFormedText, jsonDepth, safeString } from '@flaglight/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { findInputFault, MAX_BODY_DEPTH } from '../src/http/input-guard.js';
import { buildTestApp, type TestApp } from './helper.js';

describe('text and depth rules', () => {
  test('well-formed text is exactly what has no lone surrogate (String.prototype.isWellFormed)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const expected = (text as unknown as { isWellFormed(): boolean }).isWellFormed();
        expect(isWellFormedText(text)).toBe(expected);
      }),
    );
    expect(isWellFormedText('F1 🏁 chequered')).toBe(true);
    expect(isWellFormedText('\uD83C')).toBe(false);
    expect(isWellFormedText('\uDFC1x')).toBe(false);
  });

  test('control characters and line separators are found; other text passes', () => {
    for (const bad of ['a\r\nb', 'a\u0000', '\t', '\u007F', '\u0085', 'a\u2028b'])
      expect(hasControlCharacters(bad)).toBe(true);
    for (const good of ['abc-DEF_123', 'Grand Prix – São Paulo', '🏁'])
      expect(hasControlCharacters(good)).toBe(false);
  });

  test('safeString refuses lone surrogates and control characters with the field named', () => {
    const schema = safeString('applicationKey', { max: 10, trim: true });
    expect(schema.parse('  key\n')).toBe('key');
    expect(schema.safeParse('k\r\ney').error?.issues[0]?.message).toBe(
      'applicationKey must not contain control characters or line breaks',
    );
    expect(schema.safeParse('k\uD800').error?.issues[0]?.message).toBe(
      'applicationKey is not valid Unicode text',
    );
    expect(schema.safeParse('x'.repeat(11)).error?.issues[0]?.message).toBe(
      'applicationKey is too long (at most 10 characters)',
    );
  });

  test('depth is measured without recursion, even 100,000 levels deep', () => {
    const deep: unknown = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(jsonDepth(deep, 50)).toBe(51);
    expect(jsonDepth(deep)).toBe(100_000);
    expect(jsonDepth({ a: [1, { b: 2 }] })).toBe(3);
    expect(jsonDepth('text')).toBe(0);
    expect(findInputFault(deep)).toEqual({ kind: 'depth' });
    expect(findInputFault({ a: { b: ['ok', 'x\uDC00'] } })).toEqual({ kind: 'unicode', where: 'a.b.1' });
    expect(findInputFault({ ['\uD800']: 1 })).toEqual({ kind: 'unicode', where: 'a field name' });
  });
});

describe('the input guard in front of every route', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string) =>
    t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });

  test('a lone surrogate anywhere in a body is a 400 naming where, before any schema runs', async () => {
    const res = await post(
      '/auth/login',
      JSON.stringify({ email: 'a@example.com', password: 'pass\uD800word' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'password is not valid Unicode text', code: 'invalid_input' });
  });

  test(`a body nested deeper than ${MAX_BODY_DEPTH} levels is a 400`, async () => {
    const res = await post(
      '/auth/forgot-password',
      `{"email":${'['.repeat(MAX_BODY_DEPTH)}${']'.repeat(MAX_BODY_DEPTH)}}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: `The request body is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`,
      code: 'invalid_input',
    });
  });

  test('a path segment that is not UTF-8 answers {error, code}, not the router’s own body', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/admin/users/%ED%A0%80' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'The URL is not valid: a part of its path is not valid percent-encoded UTF-8',
      code: 'invalid_input',
    });
  });
});
