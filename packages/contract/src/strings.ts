import { z } from 'zod';

/*
 * Text that leaves the server's hands: into an HTTP header, a URL of an outside service, a file or a
 * database row. A lone UTF-16 surrogate cannot be encoded as UTF-8 (URL encoders throw, SDKs fail);
 * a CR, LF or NUL splits headers and lines. Both are refused here, at the contract, with a 400.
 */

// With the `u` flag a well-formed surrogate pair is one code point; only a lone half is `Cs`.
const LONE_SURROGATE = /\p{Cs}/u;
// C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators.
const CONTROL = /[\p{Cc}\u2028\u2029]/u;

/** False when the text holds a lone surrogate (what `String.prototype.isWellFormed` reports). */
export function isWellFormedText(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** True when the text holds a control character (CR, LF, NUL, tab...) or a line separator. */
export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

export const TEXT_MESSAGES = {
  notUnicode: (name: string) => `${name} is not valid Unicode text`,
  control: (name: string) => `${name} must not contain control characters or line breaks`,
  tooLong: (name: string, max: number) => `${name} is too long (at most ${max} characters)`,
  tooShort: (name: string) => `${name} is required`,
  notText: (name: string) => `${name} must be text`,
} as const;

/**
 * A string that is safe to put in a header, a URL or a row: well-formed Unicode, no control
 * characters, at most `max` characters (after trimming white space when `trim`). `name` words
 * the 400's message.
 */
export function safeString(
  name: string,
  { max, min = 0, trim = false }: { max: number; min?: number; trim?: boolean },
) {
  const text = z.string({ error: TEXT_MESSAGES.notText(name) });
  // Trimmed first when asked: a pasted value often ends with the line break that was copied along.
  return (trim ? text.trim() : text)
    .min(min, TEXT_MESSAGES.tooShort(name))
    .max(max, TEXT_MESSAGES.tooLong(name, max))
    .refine(isWellFormedText, TEXT_MESSAGES.notUnicode(name))
    .refine((text) => !hasControlCharacters(text), TEXT_MESSAGES.control(name));
}

/** Free text (names, labels): well-formed Unicode and at most `max` characters; line breaks allowed. */
export function safeText(name: string, { max }: { max: number }) {
  return z
    .string({ error: TEXT_MESSAGES.notText(name) })
    .max(max, TEXT_MESSAGES.tooLong(name, max))
    .refine(isWellFormedText, TEXT_MESSAGES.notUnicode(name));
}

/**
 * How deep a JSON value nests (a scalar is 0, `{}` and `[]` are 1), counted without recursion so a
 * hostile 10,000-level document cannot overflow the stack; stops counting past `limit`.
 */
export function jsonDepth(value: unknown, limit = Number.POSITIVE_INFINITY): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (typeof node !== 'object' || node === null) continue;
    const here = depth + 1;
    deepest = Math.max(deepest, here);
    if (deepest > limit) return deepest;
    for (const child of Object.values(node)) stack.push([child, here]);
  }
  return deepest;
}

/**
 * The rule for free-form JSON a client may store (sessionData): at most `maxDepth` levels and
 * `maxChars` characters once serialized. Use with `.superRefine(boundedJson(...))`; the depth is
 * checked first, so serializing cannot overflow the stack.
 */
export function boundedJson(name: string, { maxDepth, maxChars }: { maxDepth: number; maxChars: number }) {
  return (value: unknown, ctx: z.RefinementCtx): void => {
    if (jsonDepth(value, maxDepth) > maxDepth) {
      ctx.addIssue({ code: 'custom', message: `${name} is nested too deeply (at most ${maxDepth} levels)` });
      return;
    }
    if (JSON.stringify(value).length > maxChars)
      ctx.addIssue({
        code: 'custom',
        message: `${name} is too large (at most ${maxChars} characters as JSON)`,
      });
  };
}
