import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AppContext } from '../context.js';
import { ensurePrivateDir } from '../db/private-files.js';
import { hashPassword } from './passwords.js';

export const DEMO_ADMIN_EMAIL = 'admin@flaglight.demo';

/**
 * Demo mode only: makes sure an admin account exists so a newcomer can open the Admin page.
 * Its password is random per data folder and kept beside the database so every start can print it.
 */
export async function ensureDemoAdmin(
  context: AppContext,
): Promise<{ email: string; password: string } | undefined> {
  if (context.config.mode !== 'demo') return undefined;
  const file = path.join(context.config.dataDir, 'demo-admin.json');
  const existing = await context.auth.users.findByEmail(DEMO_ADMIN_EMAIL);
  if (existing) {
    // Made before e-mail verification existed: its address is ours, so it counts as proved.
    await context.auth.users.markEmailVerified(existing.id, context.now());
    try {
      return JSON.parse(await fs.readFile(file, 'utf8')) as { email: string; password: string };
    } catch {
      return undefined;
    }
  }
  // Upper, lower, digit and a special character: SPEC §5 reading (b) holds for it too.
  const password = `Demo-${crypto.randomBytes(6).toString('base64url')}9a!`;
  await context.auth.users.insert({
    email: DEMO_ADMIN_EMAIL,
    passwordHash: await hashPassword(password),
    plan: 'lifetime',
    isAdmin: true,
    now: context.now(),
    trialExpires: null,
    // Created verified: nobody can receive mail at the demo's own address.
    emailVerifiedAt: context.now(),
  });
  ensurePrivateDir(context.config.dataDir, { tighten: true });
  await fs.writeFile(file, `${JSON.stringify({ email: DEMO_ADMIN_EMAIL, password }, null, 2)}\n`, {
    mode: 0o600,
  });
  return { email: DEMO_ADMIN_EMAIL, password };
}
