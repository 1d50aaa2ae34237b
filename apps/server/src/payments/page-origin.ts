import type { FastifyRequest } from 'fastify';

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * The origin of the page that sent this request, as the request states it: its Origin header
 * (browsers send it with every POST), else its Referer's origin, else the origin it was addressed
 * to (Host). Any client can forge all three, so a caller only ever picks among origins it already
 * trusts (Config.appOrigins) and falls back to PUBLIC_URL.
 */
export function readPageOrigin(request: FastifyRequest): string | null {
  const { origin, referer } = request.headers;
  if (origin !== undefined) return originOf(origin);
  if (referer !== undefined) return originOf(referer);
  return originOf(`${request.protocol}://${request.host}`);
}
