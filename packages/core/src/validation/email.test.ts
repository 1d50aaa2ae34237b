import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { EMAIL_NORMALIZE_MESSAGES, normalizeEmail } from './email.js';

const refused = { ok: false, error: EMAIL_NORMALIZE_MESSAGES.invisibleCharacters };

describe('normalizeEmail', () => {
  test('trims, lower-cases and folds compatibility characters to one form', () => {
    expect(normalizeEmail('  Boss@Example.com ')).toEqual({ ok: true, value: 'boss@example.com' });
    // The Kelvin sign (U+212A) and full-width letters are the plain letters after NFKC.
    expect(normalizeEmail('\u212Aelvin@example.com')).toEqual({ ok: true, value: 'kelvin@example.com' });
    expect(normalizeEmail('ｂｏｓｓ@example.com')).toEqual({ ok: true, value: 'boss@example.com' });
    expect(normalizeEmail('')).toEqual({ ok: true, value: '' });
  });

  test.each([
    ['zero-width space', 'boss\u200B@example.com'],
    ['zero-width joiner', 'bo\u200Dss@example.com'],
    ['right-to-left override', '\u202Emoc.elpmaxe@ssob'],
    ['left-to-right mark', 'boss@example.com\u200E'],
    ['soft hyphen', 'bo\u00ADss@example.com'],
    ['no-break space inside', 'boss\u00A0x@example.com'],
    ['space inside', 'bo ss@example.com'],
    ['tab', 'boss\t@example.com'],
    ['line separator', 'boss\u2028@example.com'],
    ['NUL', 'boss\u0000@example.com'],
    ['lone surrogate', 'boss\uD800@example.com'],
    ['Hangul filler', 'boss\u3164@example.com'],
    ['variation selector', 'boss\uFE0F@example.com'],
    ['spacing diaeresis (a space after NFKC)', 'bo\u00A8ss@example.com'],
  ])('refuses an address with a %s', (_name, address) => {
    expect(normalizeEmail(address)).toEqual(refused);
  });

  test('is idempotent, and never lets an invisible character through', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (input) => {
        const once = normalizeEmail(input);
        if (!once.ok) return;
        expect(normalizeEmail(once.value)).toEqual(once);
        expect(once.value).not.toMatch(/[\p{C}\p{Z}\s]/u);
      }),
    );
  });
});
