import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { hashPassword } from '../src/auth/passwords.js';
import { parseConfig } from '../src/config.js';
import { createContext } from '../src/context.js';
import type { Timers } from '../src/live/clock.js';
import type { TestApp } from './helper.js';

/** Signs a user up through the demo bot check and returns the session token. */
export async function signUp(
  t: TestApp,
  email = `fan-${Math.random().toString(36).slice(2)}@example.com`,
): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/signup',
    payload: {
      email,
      password: 'Secret!123',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  if (res.statusCode >= 300) throw new Error(`signup failed: ${res.body}`);
  return res.json().token as string;
}

const DAY_MS = 24 * 3_600_000;

/** An account whose trial ended yesterday (signed up 60 days ago), signed in; returns its session token. */
export async function signInExpiredTrial(
  t: TestApp,
  email = `expired-${Math.random().toString(36).slice(2)}@example.com`,
): Promise<string> {
  const now = t.context.now().getTime();
  await t.context.auth.users.insert({
    email,
    passwordHash: await hashPassword('Secret!123'),
    plan: 'trial',
    now: new Date(now - 60 * DAY_MS),
    trialExpires: new Date(now - DAY_MS),
  });
  const res = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: {
      email,
      password: 'Secret!123',
      turnstileToken: t.context.sims!.turnstile.control.issueToken(),
    },
  });
  if (res.statusCode >= 300) throw new Error(`login failed: ${res.body}`);
  return res.json().token as string;
}

export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
}

/** Reads an SSE response body into events as they arrive. */
export function readSse(
  body: ReadableStream<Uint8Array>,
  onEvent: (e: SseEvent) => void,
): { done: Promise<void>; comments: () => number } {
  const decoder = new TextDecoder();
  let buffer = '';
  let comments = 0;
  const reader = body.getReader();
  const done = (async () => {
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        return;
      }
      if (chunk.done) return;
      buffer += decoder.decode(chunk.value, { stream: true });
      let i: number;
      while ((i = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, i);
        buffer = buffer.slice(i + 2);
        const event: SseEvent = {};
        let any = false;
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) comments += 1;
          const m = /^(id|event|data): ?(.*)$/.exec(line);
          if (m) {
            event[m[1] as 'id' | 'event' | 'data'] = m[2];
            any = true;
          }
        }
        if (any && (event.event || event.data)) onEvent(event);
      }
    }
  })();
  return { done, comments: () => comments };
}

/**
 * The real app with the live hub on a given clock (tests that share one fake clock between the
 * simulator and several instances): SQLite in a temp folder, demo mode, silent logs.
 */
export async function buildLiveApp(options: {
  env: Record<string, string>;
  timers: Timers;
}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-live-'));
  const config = parseConfig({ FLAGLIGHT_MODE: 'demo', DATA_DIR: dataDir, PORT: '0', ...options.env });
  const context = await createContext(config, {
    logger: pino({ level: 'silent' }),
    timers: options.timers,
    now: () => new Date(options.timers.now()),
  });
  const app = await buildApp({ context, webDistDir: path.join(dataDir, 'no-web-build') });
  await app.ready();
  return {
    app,
    context,
    config,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A replay that keeps running for the whole test (one message an hour): a session streams can follow. */
export function startReplay(t: TestApp): number {
  const t0 = Date.parse('2026-09-06T13:00:00Z');
  return t.context.live.hub.startReplay({
    messages: Array.from({ length: 4 }, (_, i) => ({
      date: new Date(t0 + i * 3_600_000).toISOString(),
      category: 'Flag',
      flag: i % 2 === 0 ? 'YELLOW' : 'GREEN',
      scope: 'Track',
      message: i % 2 === 0 ? 'YELLOW IN TRACK SECTOR 3' : 'GREEN LIGHT',
    })),
    speed: 1,
    positionMs: 0,
    info: { test: true },
  });
}
