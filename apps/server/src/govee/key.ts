/**
 * What a Govee API key may hold. It travels in the `Govee-API-Key` header, which carries Latin-1 at
 * most (fetch throws on anything above U+00FF), and Govee's keys are printable ASCII without
 * spaces. A key copied from an e-mail often brings a zero-width space or a curly quote along: it
 * is named, with its place, so the user knows to paste it again.
 */
const KEY_CHARACTER = /^[\x21-\x7E]$/;

/** The characters a copy and paste brings along, by name; any other is shown by its code point. */
const NAMES: Record<number, string> = {
  0x20: 'SPACE',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2010: 'HYPHEN',
  0x2011: 'NON-BREAKING HYPHEN',
  0x2013: 'EN DASH',
  0x2014: 'EM DASH',
  0x2018: 'LEFT SINGLE QUOTATION MARK',
  0x2019: 'RIGHT SINGLE QUOTATION MARK',
  0x201c: 'LEFT DOUBLE QUOTATION MARK',
  0x201d: 'RIGHT DOUBLE QUOTATION MARK',
  0x2026: 'HORIZONTAL ELLIPSIS',
  0x2060: 'WORD JOINER',
  0x2212: 'MINUS SIGN',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
};

/** `U+200B ZERO WIDTH SPACE`, or `U+XXXX` for a character without a name here. */
function characterName(code: number): string {
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const name = NAMES[code];
  return name ? `${hex} ${name}` : hex;
}

export const GOVEE_KEY_MESSAGES = {
  empty: 'The Govee API key is empty: paste the key from the e-mail Govee sent.',
  unsendable: 'The Govee API key has a character that is not part of a key: paste the key again.',
  character: (code: number, position: number) =>
    `The Govee API key has a character that is not part of a key (${characterName(code)} at position ${position}): paste the key again.`,
} as const;

/** True when every character of the key can go in the header as it is. */
export function isSendableGoveeKey(key: string): boolean {
  if (key === '') return false;
  for (const char of key) if (!KEY_CHARACTER.test(char)) return false;
  return true;
}

/**
 * The key as typed, trimmed of white space (a line break or spaces copied along); or, when a
 * character left cannot be part of a key, the words saying which one and where (counted in
 * characters from 1, as a person counts them).
 */
export function checkGoveeApiKey(raw: string): { ok: true; key: string } | { ok: false; message: string } {
  const key = raw.trim();
  if (key === '') return { ok: false, message: GOVEE_KEY_MESSAGES.empty };
  let position = 0;
  for (const char of key) {
    position += 1;
    if (!KEY_CHARACTER.test(char))
      return { ok: false, message: GOVEE_KEY_MESSAGES.character(char.codePointAt(0)!, position) };
  }
  return { ok: true, key };
}
