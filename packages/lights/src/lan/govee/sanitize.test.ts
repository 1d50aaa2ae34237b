import { describe, expect, test } from 'vitest';
import { goveeLabel } from './device.js';
import { parseGoveeDatagram } from './messages.js';
import { GOVEE_LAN_MAX_FIELD_LENGTH, sanitizeField } from './sanitize.js';

const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

describe('fields from a reply', () => {
  test('controls, bidi and zero-width characters, separators and lone surrogates are removed', () => {
    expect(sanitizeField('H61\u000059\r\n[ERROR] x\u001b[31m')).toBe('H6159[ERROR] x[31m');
    expect(sanitizeField('\u202eevil\u202c \u2066txt\u2069 \u200bz\u00ad \ufeff')).toBe('evil txt z');
    expect(sanitizeField('a\u0085b\u009bc\u007fd\u2028e\u2029f\ud800g')).toBe('abcdefg');
    expect(sanitizeField('  Strip 1  ')).toBe('Strip 1');
    // Letters and emoji of any script stay.
    expect(sanitizeField('Lámpara 💡 灯')).toBe('Lámpara 💡 灯');
  });

  test('at most 64 code points, never half an emoji', () => {
    expect(sanitizeField('x'.repeat(500))).toHaveLength(GOVEE_LAN_MAX_FIELD_LENGTH);
    const emoji = sanitizeField('💡'.repeat(100));
    expect(Array.from(emoji)).toHaveLength(64);
    expect(emoji).not.toMatch(UNSAFE);
  });

  test('a scan reply is clean before anything reads it; its ip must be a plain IPv4 address', () => {
    const message = parseGoveeDatagram(
      JSON.stringify({
        msg: {
          cmd: 'scan',
          data: {
            device: 'D4:AD:FC:60:00:00:00:01\n2026-01-01 [warn] forged',
            sku: '\u202eH6159\u0007'.padEnd(200, 'Z'),
            ip: '10.0.0.9\n',
          },
        },
      }),
    );
    expect(message).toEqual({
      cmd: 'scan',
      reply: {
        device: 'D4:AD:FC:60:00:00:00:012026-01-01 [warn] forged',
        sku: `H6159${'Z'.repeat(59)}`,
        ip: null,
      },
    });
    // Nothing left once cleaned: no device.
    const empty = { msg: { cmd: 'scan', data: { device: '\u0000\u200b\n', sku: 'H6159' } } };
    expect(parseGoveeDatagram(JSON.stringify(empty))).toBeNull();
    expect(goveeLabel('D4:AD:FC:60:00:00:00:01', sanitizeField('H6159\n'))).toBe('Govee H6159 ·0001');
  });
});
