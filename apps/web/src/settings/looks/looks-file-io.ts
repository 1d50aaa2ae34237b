import {
  exportLooksFile,
  LOOKS_FILE_MAX_CHARS,
  LOOKS_FILE_MESSAGES,
  parseLooksFile,
  type LooksFileResult,
} from '@flaglight/contract/looks-file';
import { LOOK_PRESETS, type LookSet } from '@flaglight/core';
import { matchingPreset } from './look-draft';
import { LOOKS_TEXTS as T } from './looks-texts';

/** The name a downloaded look set carries: its preset's, or the fan's own. */
export function lookSetName(looks: LookSet): string {
  const preset = matchingPreset(looks);
  return LOOK_PRESETS.find((candidate) => candidate.id === preset)?.name ?? 'My Flaglight looks';
}

/** The file name of a download: the set's name in lower case, words joined by hyphens. */
export function looksFileName(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `flaglight-looks-${slug || 'mine'}.json`;
}

/** Downloads the look set as a looks file (`{ "flaglight": "looks", "version": 1, … }`). */
export function downloadLooksFile(looks: LookSet): void {
  const name = lookSetName(looks);
  const blob = new Blob([exportLooksFile(name, looks)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = looksFileName(name);
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file's text as UTF-8 (FileReader: every browser, and the test DOM, has it). */
function readText(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(typeof reader.result === 'string' ? reader.result : '');
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });
}

/**
 * A file the fan chose to import: its look set and name, or why it is not one, worded by the
 * contract (a file far larger than any looks file is refused before it is read).
 */
export async function readLooksFile(file: Blob): Promise<LooksFileResult> {
  // A character is at most 4 bytes of UTF-8: anything larger cannot be within the limit.
  if (file.size > LOOKS_FILE_MAX_CHARS * 4) return { ok: false, error: LOOKS_FILE_MESSAGES.tooLarge };
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return { ok: false, error: T.importUnreadable };
  }
  return parseLooksFile(text);
}
