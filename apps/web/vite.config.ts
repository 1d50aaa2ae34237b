import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// In development the server runs on :3000 (npm run dev); Vite forwards every server path to it.
const SERVER_ORIGIN = 'http://localhost:3000';
const PROXIED_PATHS = ['/api', '/auth', '/admin', '/hue', '/sims'];

const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * Writes `.br` and `.gz` beside every text file of the build, at the highest levels (paid once
 * here, not per request); the server sends them with @fastify/static's `preCompressed`
 * (decision 014). A variant that would not be smaller is not written.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'flaglight:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await fs.readdir(outDir, { recursive: true }))
        .filter((file) => COMPRESSIBLE.test(file))
        .map((file) => path.join(outDir, file));
      const totals = { raw: 0, br: 0, gz: 0 };
      await Promise.all(
        files.map(async (file) => {
          const raw = await fs.readFile(file);
          const [br, gz] = await Promise.all([
            brotli(raw, {
              params: {
                [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
                [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
                [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
              },
            }),
            gzip(raw, { level: zlib.constants.Z_BEST_COMPRESSION }),
          ]);
          totals.raw += raw.length;
          totals.br += Math.min(br.length, raw.length);
          totals.gz += Math.min(gz.length, raw.length);
          if (br.length < raw.length) await fs.writeFile(`${file}.br`, br);
          if (gz.length < raw.length) await fs.writeFile(`${file}.gz`, gz);
        }),
      );
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      this.info(
        `precompressed ${files.length} files: ${kb(totals.raw)} → brotli ${kb(totals.br)}, gzip ${kb(totals.gz)}`,
      );
    },
  };
}

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: 'dist',
    // The server gives /assets/* long-cache headers: every file there carries a content hash.
    assetsDir: 'assets',
    emptyOutDir: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: Object.fromEntries(PROXIED_PATHS.map((path) => [path, { target: SERVER_ORIGIN }])),
  },
});
