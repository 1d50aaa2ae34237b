import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { escapeLogText } from './escape-log-text.js';

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
const LONE_SURROGATE = /\p{Cs}/u;
// Any UTF-16 text: any code point, or any code unit (so lone surrogates too).
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: codeUnit, maxLength: 200 }),
);
const unsafePoint = fc.constantFrom(
  '\n',
  '\r',
  '\t',
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u009b',
  '\u200b',
  '\u200d',
  '\u200e',
  '\u202e',
  '\u2066',
  '\u2028',
  '\u2029',
  '\ufeff',
  '\ud800',
  '\udfff',
);
const mixed = fc
  .array(fc.oneof(fc.string({ unit: 'grapheme', maxLength: 6 }), unsafePoint), { maxLength: 40 })
  .map((parts) => parts.join(''));
const printable = fc
  .string({ unit: 'binary', maxLength: 200 })
  .map((text) => [...text].filter((point) => !UNSAFE.test(point) && !LONE_SURROGATE.test(point)).join(''));

describe('escapeLogText properties', () => {
  test('the result never holds a control, format or separator character, nor a lone surrogate', () => {
    fc.assert(
      fc.property(fc.oneof(anyText, mixed), fc.option(fc.integer({ min: 1, max: 300 })), (text, max) => {
        const out = escapeLogText(text, max === null ? {} : { max });
        expect(out).not.toMatch(UNSAFE);
        expect(out).not.toMatch(LONE_SURROGATE);
      }),
      { numRuns: 2_000 },
    );
  });

  test('printable text passes unchanged', () => {
    fc.assert(
      fc.property(printable, (text) => {
        expect(escapeLogText(text)).toBe(text);
        expect(escapeLogText(text, { max: text.length || 1 })).toBe(text);
      }),
    );
  });

  test('a length limit is kept, and an emoji it splits leaves no half behind', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 60 }),
        fc.constantFrom('😀', '🏁', '🟨', '👨‍👩‍👧'),
        fc.integer({ min: 1, max: 80 }),
        (before, emoji, max) => {
          const out = escapeLogText(`${before}${emoji}${before}`, { max });
          expect(out.length).toBeLessThanOrEqual(max);
          expect(out).not.toMatch(LONE_SURROGATE);
        },
      ),
    );
  });

  test('escaping twice changes nothing more', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const once = escapeLogText(text);
        expect(escapeLogText(once)).toBe(once);
      }),
    );
  });
});
