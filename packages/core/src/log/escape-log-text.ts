// Controls (C0, DEL, C1), format characters (bidi overrides and isolates, zero-width characters,
// soft hyphen, BOM, tags), the line and paragraph separators and lone surrogates: anything that
// could end a log line, drive a terminal, reorder what a reader sees, or break its encoding.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;
const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const ELLIPSIS = '…';

export interface EscapeLogTextOptions {
  /**
   * The longest result, in UTF-16 units, ellipsis included (at least 1). Text is cut between
   * code points and never inside an escape, so an emoji at the limit is kept whole or left out.
   */
  max?: number;
}

function escapePoint(point: string): string {
  return NAMED[point] ?? `\\u{${point.codePointAt(0)!.toString(16)}}`;
}

/**
 * Text from outside (a device's name, an upstream's error, a server's answer) as one log line
 * may carry it: line breaks become `\n`, `\r` and `\t`, and every other control, format or
 * separator character and lone surrogate is written as its code point (`\u{1b}`, `\u{202e}`),
 * so nothing in it can start a new line, move a terminal's cursor or reorder the line.
 * Printable text passes unchanged; backslashes are left as they are, so a device may still
 * write a literal `\n` of its own, but never a line break.
 */
export function escapeLogText(text: string, options: EscapeLogTextOptions = {}): string {
  const max = Math.max(1, Math.floor(options.max ?? Number.POSITIVE_INFINITY));
  if (text.length <= max && !UNSAFE.test(text)) return text;
  let out = '';
  // The length of `out` at the last piece that still leaves room for the ellipsis.
  let fits = 0;
  for (const point of text) {
    out += UNSAFE.test(point) ? escapePoint(point) : point;
    if (out.length > max) return `${out.slice(0, fits)}${ELLIPSIS}`;
    if (out.length <= max - ELLIPSIS.length) fits = out.length;
  }
  return out;
}
