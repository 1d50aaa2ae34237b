import type { Plan, User } from '@flaglight/core';

export type { Plan, User } from '@flaglight/core';

// A copy of core's PLANS: importing the value would bring core's zod schemas into the landing bundle.
const PLANS: readonly Plan[] = ['trial', 'lifetime', 'pro'];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

function optionalString(value: unknown): string | null | undefined {
  return typeof value === 'string' || value === null ? value : undefined;
}

/**
 * Reads the user stored in the browser (SPEC §3 Browser storage), which is untrusted: any page
 * script or an older build may have written it. Null when it is not one. Answers of the server
 * need no reading: its serializer guarantees their shape.
 */
export function parseStoredUser(value: unknown): User | null {
  if (!isRecord(value)) return null;
  const { id, email, plan } = value;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  if (typeof email !== 'string' || email.trim() === '') return null;
  if (!isPlan(plan)) return null;
  // Older builds stored users without createdAt; '' reads as "not known" (no trial clock).
  const createdAt = typeof value.createdAt === 'string' ? value.createdAt : '';
  const user: User = { id, email, plan, isAdmin: value.isAdmin === true, createdAt };
  const lastLogin = optionalString(value.lastLogin);
  if (lastLogin !== undefined) user.lastLogin = lastLogin;
  const trialExpires = optionalString(value.trialExpires);
  if (trialExpires !== undefined) user.trialExpires = trialExpires;
  if (typeof value.emailVerified === 'boolean') user.emailVerified = value.emailVerified;
  return user;
}
