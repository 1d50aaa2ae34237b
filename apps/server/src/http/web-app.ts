import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

export const DEFAULT_WEB_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../web/dist',
);

const ONE_YEAR = 60 * 60 * 24 * 365;

/**
 * Serves the built web app. Vite puts content-hashed files under /assets/, which never change
 * and are cached for a year; everything else (index.html above all) is revalidated every time.
 * The build writes a brotli and a gzip copy beside each text file (apps/web/vite.config.ts); the
 * one the browser accepts is sent as is, with `Vary: Accept-Encoding` (decision 014).
 */
export async function webAppRoutes(app: FastifyInstance, opts: { distDir: string }): Promise<void> {
  // The built app's files are public and not part of the API contract.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, auth: 'public' };
  });
  const index = path.join(opts.distDir, 'index.html');
  if (!fs.existsSync(index)) {
    app.log.warn({ distDir: opts.distDir }, 'web app not built: run `npm run build`');
    app.get('/', async (_request, reply) =>
      reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The Flaglight web app is not built yet. Run `npm run build` (npm start does it for you).'),
    );
    return;
  }
  // Browsers ask for /favicon.ico on any page without an icon link of its own (an SVG, a JSON
  // answer, a download's error): the app's one icon is the SVG, and a 404 there is an error in
  // the browser's console. Cached a day, as a redirect the browser keeps.
  app.get('/favicon.ico', async (_request, reply) =>
    reply.header('Cache-Control', 'public, max-age=86400').redirect('/favicon.svg', 301),
  );
  await app.register(fastifyStatic, {
    root: opts.distDir,
    wildcard: false,
    index: ['index.html'],
    preCompressed: true,
    // The compressed copies are encodings of their file, not addresses of their own.
    globIgnore: ['**/*.br', '**/*.gz'],
    cacheControl: false,
    setHeaders(res, filePath) {
      const relative = path.relative(opts.distDir, filePath);
      if (relative.startsWith(`assets${path.sep}`)) {
        res.header('Cache-Control', `public, max-age=${ONE_YEAR}, immutable`);
      } else {
        res.header('Cache-Control', 'no-cache');
      }
    },
  });
}
