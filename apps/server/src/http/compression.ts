import compress from '@fastify/compress';
import { api } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

const API_PATH = /^\/(api|auth|admin|hue)(\/|$)/;

/**
 * Routes whose answers are never compressed here: the event stream (each event must leave at once,
 * not wait in a compressor's buffer; it is hijacked and written raw anyway) and the desktop
 * downloads (already-compressed binaries, sent with their exact length).
 */
const UNCOMPRESSED_ROUTES = new Set<string>([
  api.live.events.path,
  api.meta.download.path,
  api.meta.companionReleaseFile.path,
]);

/**
 * Compresses the API's answers of 1 KB and more, brotli or gzip as the client accepts (decision
 * 014). Only API paths: the web app's files come compressed from the build (http/web-app.ts) and
 * the simulators answer like the services they stand in for. Register before the routes: each
 * route is marked as it is added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook('onRoute', (route) => {
    if (!API_PATH.test(route.url) || UNCOMPRESSED_ROUTES.has(route.url)) route.compress = false;
  });
  await app.register(compress, {
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    // Clients never send compressed bodies; inflating them would only let a small request grow.
    globalDecompression: false,
  });
}
