// The public keys whose signature the companion accepts on an update manifest (decision 045).
declare const __UPDATE_TEST_KEY__: string | undefined;

/**
 * Flaglight's release keys (Ed25519, raw 32 bytes base64). The private halves live with whoever
 * signs releases, never in this repository or on the server. Empty until the first release key is
 * made (docs/packaging.md): until then no build accepts an update from a real server.
 */
export const RELEASE_KEYS: readonly string[] = [];

/**
 * The throw-away public key a test or demo build was made with (`npm run package` without a
 * release key), fixed at build time: nothing at run time (an option, a file, the server) adds a key.
 */
export const BUILD_TEST_KEY: string | null =
  typeof __UPDATE_TEST_KEY__ === 'string' && __UPDATE_TEST_KEY__ !== '' ? __UPDATE_TEST_KEY__ : null;

/**
 * The keys trusted for updates from `server`. The build's throw-away key counts only for a server on
 * this computer (demo, tests): a development build that reached someone else's computer would still
 * take updates from no real server but ours, signed by a release key.
 */
export function trustedKeysFor(server: string, testKey: string | null = BUILD_TEST_KEY): string[] {
  return testKey && isLoopbackUrl(server) ? [...RELEASE_KEYS, testKey] : [...RELEASE_KEYS];
}

/** An address on this computer: 127.x, [::1] or localhost (the packaging step imports this file alone). */
export function isLoopbackUrl(address: string): boolean {
  const host = new URL(address).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}
