import { DeviceLightSchema } from '@flaglight/contract';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { LIGHT_LABEL_MAX, normalizeLightLabel } from './light-label.js';

const FALLBACK = 'Nanoleaf s1924a';

describe('normalizeLightLabel', () => {
  test.each([
    ['79 characters and an emoji across the cut', `${'L'.repeat(79)}🏁`, 'L'.repeat(79)],
    ['a line break and a bidi override', 'Living\nRoom \u202Efdp.exe', 'Living Room fdp.exe'],
    ['tabs, CR LF, NEL and no-break spaces', ' Desk\t\r\n\u0085lamp\u00A0\u2028 2 ', 'Desk lamp 2'],
    ['zero-width spaces, joiners, isolates and a BOM', 'Ha\u200Bll\u2066way\u2069\uFEFF\u200D', 'Hallway'],
    ['NUL, DEL and C1 controls', 'a\u0000b\u007Fc\u0090d', 'abcd'],
    ['a lone surrogate', 'Lamp \uD83C', 'Lamp'],
    ['only invisible characters', '\u200B\u202E\r\n', FALLBACK],
    ['nothing at all', '', FALLBACK],
    ['decomposed accents, composed (NFC)', 'Cafe\u0301', 'Café'],
    ['an emoji family (its joiners are kept)', 'Kids 👨‍👩‍👧', 'Kids 👨‍👩‍👧'],
  ])('%s', (_name, label, expected) => {
    expect(normalizeLightLabel(label, FALLBACK)).toBe(expected);
  });

  test('the cut never splits a grapheme: an accented letter or an emoji sequence stays whole or goes', () => {
    // q with an acute accent has no composed form: two code units, one grapheme.
    expect(normalizeLightLabel(`${'x'.repeat(79)}q\u0301`, FALLBACK)).toBe('x'.repeat(79));
    expect(normalizeLightLabel(`${'x'.repeat(75)}👨‍👩‍👧`, FALLBACK)).toBe('x'.repeat(75));
    // One grapheme longer than the limit on its own is cut between code points.
    const zalgo = `a${'\u0301'.repeat(200)}`;
    expect(normalizeLightLabel(zalgo, FALLBACK)).toHaveLength(LIGHT_LABEL_MAX);
  });

  test('every name becomes one the server takes: no controls or format characters, at most 80, never empty', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (label) => {
        const out = normalizeLightLabel(label, FALLBACK);
        expect(DeviceLightSchema.shape.label.safeParse(out).success).toBe(true);
        expect(out.length).toBeGreaterThan(0);
        expect(out.length).toBeLessThanOrEqual(LIGHT_LABEL_MAX);
        expect(out).not.toMatch(/[\p{Cc}\p{Cs}]|(?!\u200D)\p{Cf}|\s{2}|^\s|\s$/u);
        expect(normalizeLightLabel(out, FALLBACK)).toBe(out);
      }),
      { numRuns: 2_000 },
    );
  });
});
