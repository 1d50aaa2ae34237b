import { describe, expect, test } from 'vitest';
import { escapeLogText } from './escape-log-text.js';

describe('escapeLogText', () => {
  test('a line break in a device name is written as \\n: the name stays on its line', () => {
    expect(escapeLogText('Desk\nlamp')).toBe('Desk\\nlamp');
    expect(escapeLogText('a\r\nb\tc')).toBe('a\\r\\nb\\tc');
    expect(escapeLogText('x\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com')).toBe(
      'x\\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com',
    );
  });

  test('a bidi override, zero-width characters and the line separators are shown by their code point', () => {
    expect(escapeLogText('lamp \u202eevil')).toBe('lamp \\u{202e}evil');
    expect(escapeLogText('a\u200bb\u2066c\u2069\u00ad\ufeff')).toBe(
      'a\\u{200b}b\\u{2066}c\\u{2069}\\u{ad}\\u{feff}',
    );
    expect(escapeLogText('one\u2028two\u2029three\u0085four')).toBe(
      'one\\u{2028}two\\u{2029}three\\u{85}four',
    );
  });

  test('terminal escapes, BEL, NUL and DEL never reach a terminal', () => {
    expect(escapeLogText('\u001b]0;title\u0007\u001b[2J\u0000\u007f\u009b')).toBe(
      '\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{0}\\u{7f}\\u{9b}',
    );
  });

  test('a lone surrogate is written by its code point; a whole emoji is kept', () => {
    expect(escapeLogText('a\ud83db')).toBe('a\\u{d83d}b');
    expect(escapeLogText('\ude00')).toBe('\\u{de00}');
    expect(escapeLogText('Lamp 😀 Ünïcødé 灯')).toBe('Lamp 😀 Ünïcødé 灯');
  });

  test('printable text, backslashes and quotes included, passes unchanged', () => {
    for (const text of ['', 'Shapes Den (NL42)', 'C:\\Users\\fan\\companion.log', 'say "hi" \\n']) {
      expect(escapeLogText(text)).toBe(text);
    }
  });

  test('a length limit cuts between code points and never inside an escape, ellipsis included', () => {
    expect(escapeLogText('abcdef', { max: 4 })).toBe('abc…');
    expect(escapeLogText('abcd', { max: 4 })).toBe('abcd');
    expect(escapeLogText(`${'x'.repeat(3)}😀`, { max: 4 })).toBe('xxx…');
    expect(escapeLogText(`${'x'.repeat(2)}😀yz`, { max: 5 })).toBe('xx😀…');
    expect(escapeLogText(`${'x'.repeat(2)}😀yz`, { max: 4 })).toBe('xx…');
    expect(escapeLogText('ab\u202ecdef', { max: 8 })).toBe('ab…');
    expect(escapeLogText('anything', { max: 1 })).toBe('…');
    expect(escapeLogText('anything', { max: 0 })).toBe('…');
  });
});
