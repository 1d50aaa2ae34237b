export const PLANS = ['trial', 'lifetime', 'pro'] as const;
export type Plan = (typeof PLANS)[number];

/** The signed-in user as the server describes it (SPEC §3 User). */
export interface User {
  id: string | number;
  email: string;
  plan: Plan;
  /** Decided by the server only (DESIGN §6 Admins); the client never infers it. */
  isAdmin: boolean;
  createdAt?: string;
  lastLogin?: string | null;
  trialExpires?: string | null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPlan(value: unknown): value is Plan {
  return typeof value === 'string' && (PLANS as readonly string[]).includes(value);
}

function optionalString(value: unknown): string | null | undefined {
  return typeof value === 'string' || value === null ? value : undefined;
}

/** Reads a user from untrusted JSON (storage or a response); null when it is not one. */
export function parseUser(value: unknown): User | null {
  if (!isRecord(value)) return null;
  const { id, email, plan } = value;
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  if (typeof email !== 'string' || email.trim() === '') return null;
  if (!isPlan(plan)) return null;
  const user: User = { id, email, plan, isAdmin: value.isAdmin === true };
  const createdAt = optionalString(value.createdAt);
  if (typeof createdAt === 'string') user.createdAt = createdAt;
  const lastLogin = optionalString(value.lastLogin);
  if (lastLogin !== undefined) user.lastLogin = lastLogin;
  const trialExpires = optionalString(value.trialExpires);
  if (trialExpires !== undefined) user.trialExpires = trialExpires;
  return user;
}
