/** The longest text kept from one field of a device's reply (real ids are 23 characters, SKUs 5). */
export const GOVEE_LAN_MAX_FIELD_LENGTH = 64;

// C0 and C1 controls, DEL, Unicode format characters (bidi overrides and isolates, zero-width
// characters, BOM), line and paragraph separators and lone surrogates: anything that could break a
// log line, reorder what a label shows, or hide characters from the person reading it.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * A string from a device's reply as it may appear in a log line or a label: unsafe characters
 * removed, spaces at the ends trimmed, at most `maxLength` code points.
 */
export function sanitizeField(value: string, maxLength = GOVEE_LAN_MAX_FIELD_LENGTH): string {
  return Array.from(value.replace(UNSAFE, '').trim()).slice(0, maxLength).join('').trim();
}
