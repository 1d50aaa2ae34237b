import { type BundledSession, findBundledSession, loadBundledSessions } from '@flaglight/data';

/**
 * How much of a refused name an error repeats: enough to spot a typo, too little to turn an
 * error into a channel for anything else.
 */
export const RECORDING_NAME_ECHO_MAX = 40;

/**
 * The control routes run on the app's origin in demo mode without sign-in, so a recording is
 * only ever picked from packages/data's list by exact id: never a path, so no file outside the
 * recordings is opened and nothing about the file system reaches the answer.
 */
export class UnknownRecordingError extends Error {
  override name = 'UnknownRecordingError';

  /** `listRoute`: where the caller finds the names (`/sims/f1live/_control/fixtures`). */
  constructor(given: unknown, listRoute?: string) {
    const hint = listRoute ? `pick one of GET ${listRoute}` : 'not one of the bundled recordings';
    super(`Unknown recording "${echoRecordingName(given)}": ${hint}`);
  }
}

/** A caller's name, safe to repeat in an error: printable ASCII without quotes, cut short. */
export function echoRecordingName(given: unknown): string {
  const text = typeof given === 'string' ? given : typeof given === 'number' ? String(given) : '';
  const printable = text.replace(/[^\x20-\x7e]/g, '?').replaceAll('"', "'");
  return printable.length > RECORDING_NAME_ECHO_MAX
    ? `${printable.slice(0, RECORDING_NAME_ECHO_MAX)}…`
    : printable;
}

/** The ids a simulator may replay (`2021-saudi-arabia-race`), oldest first. */
export function listRecordingNames(): string[] {
  return loadBundledSessions().map((session) => session.id);
}

/** True only for an id on packages/data's list, compared exactly. */
export function isRecordingName(name: unknown): name is string {
  return typeof name === 'string' && loadBundledSessions().some((session) => session.id === name);
}

/** The recording a name picks; throws `UnknownRecordingError` for anything off the list. */
export function requireRecordingName(name: unknown, listRoute?: string): string {
  if (!isRecordingName(name)) throw new UnknownRecordingError(name, listRoute);
  return name;
}

/**
 * The bundled session an id or its original session key picks (OpenF1's replays take either,
 * both compared exactly against the list); throws `UnknownRecordingError` otherwise.
 */
export function requireBundledSession(fixture: unknown, listRoute?: string): BundledSession {
  const key = typeof fixture === 'string' || typeof fixture === 'number' ? String(fixture) : null;
  const session = key === null ? undefined : findBundledSession(key);
  if (!session) throw new UnknownRecordingError(fixture, listRoute);
  return session;
}
