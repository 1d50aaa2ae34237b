import type { Result } from './validate.js';

/** Why an address was refused before any lookup. */
export const EMAIL_NORMALIZE_MESSAGES = {
  invisibleCharacters:
    'Email addresses cannot contain spaces, line breaks, or invisible or control characters (such as zero-width or text-direction marks). Please type the address again.',
} as const;

// Control, format (zero-width, bidi), surrogate, private-use and unassigned code points; every
// space and line/paragraph separator; and what Unicode says to ignore when shown (fillers,
// variation selectors, the combining grapheme joiner). None of these belongs in an address,
// and each lets two addresses look alike.
const INVISIBLE = /[\p{C}\p{Z}\s\p{Default_Ignorable_Code_Point}]/u;

/**
 * The one form an e-mail address is stored, compared and looked up in: trimmed, Unicode NFKC
 * (so the Kelvin sign and full-width letters become their plain letters), lower-cased. An empty
 * input stays empty (the form's own check says it is required); an address with a control,
 * format or whitespace character inside is refused rather than silently cleaned, since cleaning
 * would turn a look-alike into the real address's twin.
 */
export function normalizeEmail(input: string): Result<string> {
  const trimmed = input.trim();
  if (INVISIBLE.test(trimmed)) return { ok: false, error: EMAIL_NORMALIZE_MESSAGES.invisibleCharacters };
  // NFKC again after lower-casing: a few lower-case mappings leave a decomposed form.
  const normalized = trimmed.normalize('NFKC').toLowerCase().normalize('NFKC');
  if (INVISIBLE.test(normalized)) return { ok: false, error: EMAIL_NORMALIZE_MESSAGES.invisibleCharacters };
  return { ok: true, value: normalized };
}
