import { messageOf, SetupError } from './errors.js';
import { sleep } from './time.js';

/** Polls `check` until it returns something truthy; a throw counts as "not yet" and is kept for the error. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | null | undefined | false>,
  ms = 60_000,
  everyMs = 200,
): Promise<T> {
  const end = Date.now() + ms;
  let last = '';
  for (;;) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = messageOf(error);
    }
    if (Date.now() > end) throw new SetupError(`timed out waiting for ${what}${last ? `: ${last}` : ''}`);
    await sleep(everyMs);
  }
}
