import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startF1LiveSim } from '@flaglight/sims';
import { build } from 'esbuild';
import { expect, test } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';

const run = promisify(execFile);
const ENTRY = fileURLToPath(new URL('../src/index.ts', import.meta.url));

// The companion ships as one esbuild CommonJS bundle inside a Node single executable, where
// `require` finds nothing but built-ins: the client must work from a bundle run outside node_modules.
test(
  'bundled with esbuild (cjs, node) and run outside node_modules, it follows the feed',
  { timeout: paced(20_000) },
  async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'f1-live-bundle-'));
    const sim = await startF1LiveSim({
      fixture: '2021-saudi-arabia-race',
      speed: 0,
      positionMs: 8_000_000,
      requireCookie: true,
    });
    try {
      const main = path.join(dir, 'main.ts');
      writeFileSync(
        main,
        `import { createF1LiveClient } from ${JSON.stringify(ENTRY)};
const client = createF1LiveClient({ baseUrl: process.argv[2] });
client.on('trackStatus', (e) => { console.log(JSON.stringify({ status: e.status, source: e.source })); void client.stop(); });
client.on('state', (s) => { if (s.connection === 'down' && s.error) { console.log(JSON.stringify(s)); process.exit(1); } });
client.start();
`,
      );
      const outfile = path.join(dir, 'bundle.cjs');
      const result = await build({
        entryPoints: [main],
        outfile,
        bundle: true,
        platform: 'node',
        target: 'node20',
        format: 'cjs',
        logLevel: 'silent',
        minify: true,
      });
      expect(result.errors).toEqual([]);
      console.log(`f1-live: minified cjs bundle ${Math.round(statSync(outfile).size / 1024)} KiB`);
      const { stdout } = await run(process.execPath, [outfile, sim.hubUrl], {
        cwd: dir,
        timeout: paced(10_000),
      });
      expect(JSON.parse(stdout.trim().split('\n')[0]!)).toEqual({ status: '1', source: 'snapshot' });
    } finally {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
