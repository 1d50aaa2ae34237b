// The second half of `npm test`, after the static checks (decision 043): two lanes side by side.
//   real-time: the browser journeys that wait on the race's clock (one at a time, mostly idle);
//   checks:    Vitest, then the other browser journeys (screens) on a demo server of their own.
// Both lanes always run to their end; the exit code is the first failure's. Each line is prefixed
// with its lane, so the CI log reads either way.
import { spawn } from 'node:child_process';
import fs from 'node:fs';

const PLAYWRIGHT = ['playwright', 'test', '-c', 'e2e/playwright.config.ts'];
// Two demo servers at once: the real-time lane keeps the default port, the screens take the next.
const basePort = Number(process.env.E2E_PORT ?? 3199);

function run(lane, command, args, env = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const prefix = `[${lane}] `;
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.on('data', (chunk) => {
        const lines = (rest + chunk.toString()).split('\n');
        rest = lines.pop() ?? '';
        for (const line of lines) process.stdout.write(prefix + line + '\n');
      });
      stream.on('end', () => rest && process.stdout.write(prefix + rest + '\n'));
    }
    child.on('error', (error) => {
      process.stdout.write(`${prefix}could not start ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('close', (code, signal) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      process.stdout.write(
        `${prefix}${[command, ...args].join(' ')}: exit ${code ?? signal} after ${seconds} s\n`,
      );
      resolve(code ?? 1);
    });
  });
}

// Reports of an earlier run would be counted again by scripts/test-summary.mjs.
for (const name of fs.existsSync('test-results') ? fs.readdirSync('test-results') : []) {
  if (/^playwright(-[a-z-]+)?\.json$/.test(name)) fs.rmSync(`test-results/${name}`);
}

const lanes = await Promise.all([
  run('real-time', 'npx', [...PLAYWRIGHT, '--project', 'real-time'], {
    E2E_LANE: 'real-time',
    E2E_PORT: String(basePort),
  }),
  (async () => {
    const unit = await run('checks', 'npx', ['vitest', 'run', '--coverage']);
    const screens = await run('checks', 'npx', [...PLAYWRIGHT, '--project', 'screens'], {
      E2E_LANE: 'screens',
      E2E_PORT: String(basePort + 1),
    });
    return unit || screens;
  })(),
]);
process.exit(lanes.find((code) => code !== 0) ?? 0);
