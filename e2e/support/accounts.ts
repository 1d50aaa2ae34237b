import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { APIRequestContext } from '@playwright/test';
import Database from 'better-sqlite3';

/** Real accounts on the e2e server (demo mode), made through its own API. */

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const STRONG_PASSWORD = 'Checkered1!';

export interface ApiUser {
  id: number | string;
  email: string;
  plan: 'trial' | 'lifetime' | 'pro';
  isAdmin: boolean;
  createdAt: string;
  lastLogin: string | null;
  trialExpires: string | null;
  /** The address was confirmed (the sign-up e-mail's link, or a password reset). */
  emailVerified?: boolean;
}

export interface Session {
  token: string;
  user: ApiUser;
}

/** The e2e server's data folder (playwright.config.ts picks it and shares it with the workers). */
export function dataDir(): string {
  const dir = process.env.FLAGLIGHT_E2E_DATA_DIR;
  if (!dir) throw new Error('FLAGLIGHT_E2E_DATA_DIR is not set: run through playwright.config.ts');
  return dir;
}

let counter = 0;
/** A fresh e-mail per call, so journeys never share an account. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}.${Date.now().toString(36)}${counter}.${process.pid}@example.com`;
}

/** What the demo checkbox does: a one-use bot-check token from the stand-in. */
export async function botToken(request: APIRequestContext, action = 'e2e'): Promise<string> {
  const config = (await (await request.get('/api/config')).json()) as {
    turnstile: { siteKey: string; tokenUrl?: string };
  };
  const response = await request.post(config.turnstile.tokenUrl ?? '/sims/turnstile/token', {
    data: { sitekey: config.turnstile.siteKey, action },
  });
  return ((await response.json()) as { token: string }).token;
}

async function expectOk(
  response: Awaited<ReturnType<APIRequestContext['post']>>,
  what: string,
): Promise<unknown> {
  if (!response.ok()) throw new Error(`${what}: ${response.status()} ${await response.text()}`);
  return response.json();
}

export async function signUpViaApi(
  request: APIRequestContext,
  email = uniqueEmail('fan'),
  password = STRONG_PASSWORD,
): Promise<Session> {
  const response = await request.post('/auth/signup', {
    data: { email, password, plan: 'trial', turnstileToken: await botToken(request, 'signup') },
  });
  return (await expectOk(response, 'sign-up')) as Session;
}

export async function logInViaApi(
  request: APIRequestContext,
  email: string,
  password: string,
): Promise<Session> {
  const response = await request.post('/auth/login', {
    data: { email, password, turnstileToken: await botToken(request, 'login') },
  });
  return (await expectOk(response, 'login')) as Session;
}

/** The demo admin that demo mode creates on first start (its password is kept beside the database). */
export function demoAdmin(): { email: string; password: string } {
  return JSON.parse(readFileSync(path.join(dataDir(), 'demo-admin.json'), 'utf8')) as {
    email: string;
    password: string;
  };
}

export async function adminSession(request: APIRequestContext): Promise<Session> {
  const { email, password } = demoAdmin();
  return logInViaApi(request, email, password);
}

/**
 * The admin session upgrades use, signed in once per worker: a sign-in costs an argon2 check, and
 * most journeys need a lifetime account. Never handed to a page, so no journey signs it out; a
 * refused token (a server restarted on the same folder) signs in again.
 */
let upgradeAdmin: Promise<Session> | null = null;

function upgradeAdminSession(request: APIRequestContext): Promise<Session> {
  upgradeAdmin ??= adminSession(request).catch((error: unknown) => {
    upgradeAdmin = null;
    throw error;
  });
  return upgradeAdmin;
}

export async function upgradeViaAdmin(request: APIRequestContext, userId: ApiUser['id']): Promise<void> {
  const upgrade = async () =>
    request.put(`/admin/users/${userId}/plan`, {
      data: { plan: 'lifetime' },
      headers: { Authorization: `Bearer ${(await upgradeAdminSession(request)).token}` },
    });
  let response = await upgrade();
  if (response.status() === 401) {
    upgradeAdmin = null;
    response = await upgrade();
  }
  await expectOk(response, 'admin upgrade');
}

/** Issues a licence key with the admin command against the e2e server's database. */
export async function issueLicenceKey(plan: 'lifetime' | 'pro' = 'lifetime'): Promise<string> {
  const { stdout } = await promisify(execFile)(
    'npm',
    ['run', '-s', 'licence', '--', 'issue', '--plan', plan],
    {
      cwd: REPO_ROOT,
      env: { ...process.env, FLAGLIGHT_MODE: 'demo', DATA_DIR: dataDir(), LOG_LEVEL: 'warn' },
    },
  );
  const key = /[A-Z0-9]{4}(?:-[A-Z0-9]{4}){3}/.exec(stdout)?.[0];
  if (!key) throw new Error(`no licence key in: ${stdout}`);
  return key;
}

/** Moves a user's trial end straight in the database (there is no API for it). */
export function setTrialExpires(email: string, when: Date): void {
  const db = new Database(path.join(dataDir(), 'flaglight.db'));
  try {
    db.prepare('UPDATE users SET trial_expires = ? WHERE email = ?').run(
      when.toISOString(),
      email.toLowerCase(),
    );
  } finally {
    db.close();
  }
}

/** The e-mails the demo SMTP catcher holds for an address, newest last. */
export async function caughtMail(
  request: APIRequestContext,
  to: string,
): Promise<{ to: string; subject: string; text: string; html: string; date: string }[]> {
  const response = await request.get(`/sims/mail/?to=${encodeURIComponent(to)}`);
  return (await response.json()) as {
    to: string;
    subject: string;
    text: string;
    html: string;
    date: string;
  }[];
}
