// Types of scripts/entry-bundle.mjs, for the TypeScript tests that start the server or the companion.
export type EntryName = 'server' | 'companion';
/** The bundle of `name`, made first when missing or out of date; its absolute path. */
export function ensureEntryBundle(name: EntryName): Promise<string>;
/** The command that starts `name` from its bundle: `[node, [bundle]]`. */
export function entryCommand(name: EntryName): Promise<[string, string[]]>;
