/** The result of the Hue OAuth flow, by popup message or by URL parameters (SPEC §4). */
export type HueAuthResult = { ok: true } | { ok: false; reason: string };

export const HUE_OAUTH_SUCCESS = 'HUE_OAUTH_SUCCESS';
export const HUE_OAUTH_ERROR = 'HUE_OAUTH_ERROR';

/** Reads a popup's message; anything not from this app's origin or not a Hue result is null. */
export function readHueAuthMessage(event: MessageEvent, appOrigin: string): HueAuthResult | null {
  if (event.origin !== appOrigin) return null;
  const data: unknown = event.data;
  const type = typeof data === 'string' ? data : (data as { type?: unknown } | null)?.type;
  if (type === HUE_OAUTH_SUCCESS) return { ok: true };
  if (type === HUE_OAUTH_ERROR) {
    const raw = data as { error?: unknown; reason?: unknown; message?: unknown } | string;
    const reason =
      typeof raw === 'object'
        ? [raw.error, raw.reason, raw.message].find((v): v is string => typeof v === 'string' && v !== '')
        : undefined;
    return { ok: false, reason: reason ?? 'unknown error' };
  }
  return null;
}

const PARAMS = ['hue_success', 'hue_error'] as const;

function paramsOf(url: URL): { search: URLSearchParams; hashPath: string; hashParams: URLSearchParams } {
  const hash = url.hash.replace(/^#/, '');
  const [hashPath = '', hashQuery = ''] = hash.split('?');
  return { search: url.searchParams, hashPath, hashParams: new URLSearchParams(hashQuery) };
}

/**
 * SPEC §4: `hue_success=true` or `hue_error=<reason>` after a redirect, in the query string or in
 * the hash route's query. Returns the result and the same URL without those parameters.
 */
export function takeHueAuthParams(href: string): { result: HueAuthResult | null; cleaned: string } {
  const url = new URL(href);
  const { search, hashPath, hashParams } = paramsOf(url);
  const read = (name: (typeof PARAMS)[number]) => search.get(name) ?? hashParams.get(name);
  const error = read('hue_error');
  const success = read('hue_success');
  let result: HueAuthResult | null = null;
  if (error !== null) result = { ok: false, reason: error || 'unknown error' };
  else if (success === 'true') result = { ok: true };
  if (error === null && success === null) return { result, cleaned: href };
  for (const name of PARAMS) {
    search.delete(name);
    hashParams.delete(name);
  }
  const hashQuery = hashParams.toString();
  url.hash = hashPath || hashQuery ? `#${hashPath}${hashQuery ? `?${hashQuery}` : ''}` : '';
  return { result, cleaned: url.toString() };
}
