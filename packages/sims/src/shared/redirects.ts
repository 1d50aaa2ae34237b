import type { FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/;

function originOf(url: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * Whether a simulator may send the browser to `target` (no open redirect).
 * Allowed: the app's origins (`appOrigins`: demo mode passes PUBLIC_URL's), the origin the
 * request itself came to (the simulators are served on the app's origin, whichever name the
 * browser used for it), and, for a request that came over loopback, loopback origins (demo mode
 * listens on loopback; tests run there).
 * Anything else, `https://evil.example` for one, is refused.
 */
export function isAllowedRedirect(
  target: string,
  request: FastifyRequest,
  appOrigins: readonly string[] = [],
): boolean {
  const url = originOf(target);
  if (!url) return false;
  const came = originOf(`${request.protocol}://${request.host}`);
  // Another loopback port only for a browser that is itself on loopback (a demo opened to the LAN
  // with HOST must not bounce a neighbour's browser to that neighbour's own local services).
  if (came && LOOPBACK_HOST.test(came.hostname) && LOOPBACK_HOST.test(url.hostname)) return true;
  if (appOrigins.some((origin) => originOf(origin)?.origin === url.origin)) return true;
  return came?.origin === url.origin;
}

/** The 400 page a refused redirect answers with. */
export function refuseRedirect(reply: FastifyReply): FastifyReply {
  return reply
    .code(400)
    .type('text/html; charset=utf-8')
    .send(
      '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Redirect refused</title></head>' +
        "<body><h1>Redirect refused</h1><p>The return address is not on this app's origin.</p></body></html>",
    );
}
