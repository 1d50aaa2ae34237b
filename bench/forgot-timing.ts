/**
 * Forgot-password timing: the answer for an address with an account and for
 * one without must take the same time, or the timing tells who has an account. Runs the real app
 * (demo mode, SQLite in a temp folder) through app.inject, alternating known and unknown
 * addresses, and prints median, p90 and mean of each. Prints figures, asserts nothing.
 * Run: npm run bench:forgot -w @flaglight/bench [-- 2000]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { buildApp } from '../apps/server/src/app.js';
import { parseConfig } from '../apps/server/src/config.js';
import { createContext } from '../apps/server/src/context.js';

const rounds = Number(process.argv[2] ?? 1000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-bench-forgot-'));
const config = parseConfig({
  FLAGLIGHT_MODE: 'demo',
  DATA_DIR: dataDir,
  PORT: '0',
  AUTH_RATE_LIMIT_PER_MINUTE: '100000000',
});
const context = await createContext(config, { logger: pino({ level: 'silent' }) });
const app = await buildApp({ context, webDistDir: path.join(dataDir, 'no-web-build') });
await app.ready();

const signup = await app.inject({
  method: 'POST',
  url: '/auth/signup',
  payload: {
    email: 'known@example.com',
    password: 'Sunday!Race1',
    turnstileToken: context.sims!.turnstile.control.issueToken(),
  },
});
if (signup.statusCode !== 201) throw new Error(`sign-up failed: ${signup.body}`);

async function forgot(email: string): Promise<number> {
  const started = performance.now();
  const res = await app.inject({ method: 'POST', url: '/auth/forgot-password', payload: { email } });
  const took = performance.now() - started;
  if (res.statusCode !== 200) throw new Error(`forgot-password answered ${res.statusCode}: ${res.body}`);
  return took;
}

const times: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
const warmup = Math.min(200, rounds);
for (let i = 0; i < warmup + rounds; i += 1) {
  // Alternating, so drift (GC, the background mail) falls on both sides alike.
  const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
  for (const kind of order) {
    const took = await forgot(kind === 'known' ? 'known@example.com' : `nobody-${i}@example.com`);
    if (i >= warmup) times[kind].push(took);
  }
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
  return { median: at(0.5), p90: at(0.9), mean: values.reduce((a, b) => a + b, 0) / values.length };
};
const known = stats(times.known);
const unknown = stats(times.unknown);
const ms = (value: number) => `${value.toFixed(3)} ms`;
console.log(`forgot-password, ${rounds} requests each (after ${warmup} warm-up), app.inject, SQLite`);
console.log(`  account exists:  median ${ms(known.median)}  p90 ${ms(known.p90)}  mean ${ms(known.mean)}`);
console.log(
  `  no account:      median ${ms(unknown.median)}  p90 ${ms(unknown.p90)}  mean ${ms(unknown.mean)}`,
);
console.log(
  `  difference:      median ${ms(known.median - unknown.median)}  (${(
    ((known.median - unknown.median) / unknown.median) *
    100
  ).toFixed(1)} %)`,
);

await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
