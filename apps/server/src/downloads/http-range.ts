/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14.1.2, §14.2): the whole file
 * (no header, or one the server may ignore: another unit, several ranges, a malformed or reversed
 * range), one part of it (`end` inclusive), or nothing it has (416).
 */
export type ByteRange =
  { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

const WHOLE: ByteRange = { kind: 'whole' };
const UNSATISFIABLE: ByteRange = { kind: 'unsatisfiable' };

/** One range of bytes: `first-last`, `first-` or `-suffix`. Several ranges get the whole file (allowed, and simpler than multipart). */
const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/i;

export function parseByteRange(header: string | undefined, size: number): ByteRange {
  if (header === undefined) return WHOLE;
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return WHOLE;
  const first = match[1] ?? '';
  const last = match[2] ?? '';
  if (first === '' && last === '') return WHOLE;
  if (first === '') {
    // The last `suffix` bytes; none is nothing.
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return WHOLE;
    if (suffix === 0 || size === 0) return UNSATISFIABLE;
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Number(last);
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end)) return WHOLE;
  if (start >= size) return UNSATISFIABLE;
  // A last position before the first is invalid: ignored, like any malformed range.
  if (end < start) return WHOLE;
  return { kind: 'part', start, end: Math.min(end, size - 1) };
}

const opaque = (tag: string) => tag.trim().replace(/^W\//, '');

/** `If-None-Match`: `*`, or one of its entity tags equal to ours, weakly compared (RFC 9110 §13.1.2). */
export function matchesNoneMatch(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * `If-Range`: the range is sent only when the validator is our strong entity tag, exactly (RFC 9110
 * §13.1.5). A date, a weak tag or another tag means the file may have changed: the whole file.
 */
export function honoursIfRange(header: string | string[] | undefined, etag: string): boolean {
  // Sent twice: not one validator, so not ours.
  if (Array.isArray(header)) return false;
  return header === undefined || header.trim() === etag;
}
