import type { LookSet } from '@flaglight/core';
import { z } from 'zod';
import { describeLookIssue, LOOK_MESSAGES, LookSetSchema } from './looks.js';
import { safeString } from './strings.js';

/** What the `flaglight` field of a looks file says, and the one version this release reads and writes. */
export const LOOKS_FILE_KIND = 'looks';
export const LOOKS_FILE_VERSION = 1;
/** A look set's name in a file: what a fan types to tell their sets apart. */
export const LOOKS_FILE_NAME_MAX = 60;
/** A looks file is a few KiB; anything far larger is not one, and is refused before it is parsed. */
export const LOOKS_FILE_MAX_CHARS = 64 * 1024;

export const LOOKS_FILE_MESSAGES = {
  tooLarge: 'This file is too large to be a Flaglight looks file.',
  notJson: 'This file is not a Flaglight looks file: it is not JSON.',
  notLooks: 'This file is not a Flaglight looks file.',
  newerVersion: (version: number) =>
    `This looks file is version ${version}, from a newer Flaglight: update Flaglight to import it.`,
  unknownVersion: `This looks file has no version this Flaglight reads (it reads version ${LOOKS_FILE_VERSION}).`,
} as const;

/** A look set to share: `{ "flaglight": "looks", "version": 1, "name": …, "looks": … }`. */
export const LooksFileSchema = z
  .strictObject(
    {
      flaglight: z.literal(LOOKS_FILE_KIND),
      version: z.literal(LOOKS_FILE_VERSION),
      name: safeString('name', { min: 1, max: LOOKS_FILE_NAME_MAX, trim: true }),
      looks: LookSetSchema,
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? LOOK_MESSAGES.unknownField(issue.keys) : undefined,
    },
  )
  .meta({ id: 'LooksFile' });
export type LooksFile = z.infer<typeof LooksFileSchema>;

export type LooksFileResult = { ok: true; name: string; looks: LookSet } | { ok: false; error: string };

/** The file a fan downloads to keep or share a look set, as JSON text. */
export function exportLooksFile(name: string, looks: LookSet): string {
  const file: LooksFile = { flaglight: LOOKS_FILE_KIND, version: LOOKS_FILE_VERSION, name, looks };
  return `${JSON.stringify(file, null, 2)}\n`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON of a file, or why it is not a looks file of a version this release reads. */
function readEnvelope(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  if (text.length > LOOKS_FILE_MAX_CHARS) return { ok: false, error: LOOKS_FILE_MESSAGES.tooLarge };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: LOOKS_FILE_MESSAGES.notJson };
  }
  if (!isRecord(value) || value.flaglight !== LOOKS_FILE_KIND)
    return { ok: false, error: LOOKS_FILE_MESSAGES.notLooks };
  if (value.version === LOOKS_FILE_VERSION) return { ok: true, value };
  const newer = Number.isInteger(value.version) && (value.version as number) > LOOKS_FILE_VERSION;
  return {
    ok: false,
    error: newer
      ? LOOKS_FILE_MESSAGES.newerVersion(value.version as number)
      : LOOKS_FILE_MESSAGES.unknownVersion,
  };
}

/**
 * A looks file a fan imports (its text): the name and the look set, or an error to show them: not a
 * looks file, a version this release does not read, or the first field that is wrong, worded as the
 * API's 400 (`looks.flags.red.color.hue: must be 0 to 360`).
 */
export function parseLooksFile(text: string): LooksFileResult {
  const envelope = readEnvelope(text);
  if (!envelope.ok) return envelope;
  const parsed = LooksFileSchema.safeParse(envelope.value);
  if (!parsed.success) return { ok: false, error: describeLookIssue(parsed.error.issues[0]!) };
  return { ok: true, name: parsed.data.name, looks: parsed.data.looks };
}
