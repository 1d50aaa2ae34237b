import { AuthResponseSchema, LicenseStatusSchema, normalizeEmail, UserSchema } from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import { MAX_SESSION_DATA_CHARS, MAX_SESSION_DATA_DEPTH } from '../limits.js';
import { boundedJson, safeString, safeText } from '../strings.js';

// Generous bounds: anything longer is not an e-mail, a password or a token.
const password = z.string().max(1024);

/**
 * Every e-mail a route receives, in its one stored form (trimmed, NFKC, lower-case), or a 400
 * when it holds a control, format or whitespace character. Routes see only the normalized value,
 * so no lookup or uniqueness check can meet a look-alike.
 */
export const EmailSchema = z
  .string()
  .max(320)
  .transform((value, ctx) => {
    const result = normalizeEmail(value);
    if (result.ok) return result.value;
    ctx.addIssue({ code: 'custom', message: result.error });
    return z.NEVER;
  });
const email = EmailSchema;

export const CredentialsSchema = z.object({
  email,
  password,
  turnstileToken: safeString('turnstileToken', { max: 4096 }).optional(),
});
export const SignupBodySchema = CredentialsSchema.extend({ plan: z.literal('trial').optional() });
export const ForgotPasswordBodySchema = z.object({ email });
export const VerifyEmailBodySchema = z.object({ token: z.string().max(512) });
export const ResetPasswordBodySchema = z.object({
  token: safeString('token', { max: 512 }).optional(),
  password,
  confirmPassword: password.optional(),
});

const login = (path: '/auth/login' | '/api/auth/login') =>
  defineRoute({
    method: 'POST',
    path,
    auth: 'public',
    summary: path === '/auth/login' ? 'Sign in' : 'Sign in (the test login page)',
    tags: ['auth'],
    body: CredentialsSchema,
    responses: { 200: AuthResponseSchema, ...errors(400, 401, 429, 503) },
  });

const message = z.object({ message: z.string() });

export const authRoutes = {
  login: login('/auth/login'),
  testLogin: login('/api/auth/login'),
  signup: defineRoute({
    method: 'POST',
    path: '/auth/signup',
    auth: 'public',
    summary: 'Create an account on the free trial',
    tags: ['auth'],
    body: SignupBodySchema,
    responses: { 201: AuthResponseSchema, ...errors(400, 409, 429, 503) },
  }),
  verify: defineRoute({
    method: 'GET',
    path: '/auth/verify',
    auth: 'user',
    summary: 'Check a session token',
    tags: ['auth'],
    responses: { 200: z.object({ valid: z.literal(true), user: UserSchema }), ...errors(401) },
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/auth/me',
    auth: 'user',
    summary: 'The signed-in user',
    tags: ['auth'],
    responses: { 200: z.object({ user: UserSchema }), ...errors(401) },
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/auth/logout',
    auth: 'public',
    summary: 'End the session of the bearer token, if any',
    tags: ['auth'],
    // 400: a body that is not the JSON its content type says.
    responses: { 200: z.object({ ok: z.literal(true) }), ...errors(400, 429) },
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/auth/forgot-password',
    auth: 'public',
    summary: 'Send a password reset link (same answer whether or not the account exists)',
    tags: ['auth'],
    body: ForgotPasswordBodySchema,
    responses: { 200: message, ...errors(400, 429) },
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/auth/reset-password',
    auth: 'public',
    summary: 'Choose a new password with a reset link (it also confirms the e-mail address)',
    tags: ['auth'],
    body: ResetPasswordBodySchema,
    responses: {
      200: z.object({ success: z.literal(true), message: z.string() }),
      ...errors(400, 429),
    },
  }),
  verifyEmail: defineRoute({
    method: 'POST',
    path: '/api/auth/verify-email',
    auth: 'user',
    summary:
      "Confirm the signed-in account's e-mail address with the link sent at sign-up (single use, 48 hours)",
    tags: ['auth'],
    body: VerifyEmailBodySchema,
    responses: {
      200: z.object({ success: z.literal(true), message: z.string() }),
      ...errors(400, 401, 429),
    },
  }),
  resendVerification: defineRoute({
    method: 'POST',
    path: '/api/auth/resend-verification',
    auth: 'user',
    summary: 'Send the confirmation link again (a few per hour per account)',
    tags: ['auth'],
    responses: {
      200: z.object({ sent: z.boolean(), message: z.string() }),
      ...errors(401, 429),
    },
  }),
};

const withUser = { success: z.literal(true), user: UserSchema.nullable() };

export const licenceRoutes = {
  status: defineRoute({
    method: 'GET',
    path: '/api/license/status',
    auth: 'user',
    summary: "The signed-in user's licence",
    tags: ['licences'],
    responses: { 200: LicenseStatusSchema, ...errors(401) },
  }),
  verify: defineRoute({
    method: 'POST',
    path: '/api/license/verify',
    auth: 'user',
    summary: 'Redeem a licence key',
    tags: ['licences'],
    body: z.object({ licenseKey: safeString('licenseKey', { max: 200 }) }),
    responses: {
      200: z.object({ ...withUser, message: z.string() }),
      ...errors(400, 401, 404, 409, 429),
    },
  }),
};

export const paymentRoutes = {
  checkout: defineRoute({
    method: 'POST',
    path: '/api/payments/checkout',
    auth: 'user',
    summary: 'Start a Stripe Checkout for lifetime access (A$20)',
    tags: ['payments'],
    responses: {
      200: z.object({ url: z.string(), sessionId: z.string() }),
      ...errors(401, 409, 502, 503),
    },
  }),
  upgradeAfterPayment: defineRoute({
    method: 'POST',
    path: '/api/payments/upgrade-after-payment',
    auth: 'user',
    summary: 'Apply a paid checkout session on return from Stripe',
    tags: ['payments'],
    body: z.object({ sessionId: safeString('sessionId', { min: 1, max: 300 }) }),
    responses: {
      200: z.object({ ...withUser, upgraded: z.boolean() }),
      ...errors(400, 401, 403, 404, 502, 503),
    },
  }),
  checkPayments: defineRoute({
    method: 'POST',
    path: '/api/payments/check-payments',
    auth: 'user',
    summary: "Look for paid checkouts of the user's that were not applied",
    tags: ['payments'],
    responses: {
      200: z.object({ ...withUser, upgraded: z.boolean(), checked: z.number() }),
      ...errors(401, 502, 503),
    },
  }),
  webhook: defineRoute({
    method: 'POST',
    path: '/api/payments/webhook',
    auth: 'public',
    summary: 'Stripe webhook (checked by its Stripe-Signature header)',
    tags: ['payments'],
    body: z.string().describe('The raw event as Stripe signed it'),
    responses: { 200: z.object({ received: z.literal(true) }), ...errors(400, 503) },
  }),
};

export const TrackedSessionDataSchema = z
  .object({
    session_key: z.union([safeString('session_key', { max: 50 }), z.number()]).optional(),
    session_name: safeText('session_name', { max: 200 }).optional(),
    race_name: safeText('race_name', { max: 200 }).optional(),
    circuit_name: safeText('circuit_name', { max: 200 }).optional(),
    date_start: safeString('date_start', { max: 50 }).optional(),
    date_end: safeString('date_end', { max: 50 }).optional(),
  })
  .loose()
  // Free-form beyond those fields: bounded, so storing it cannot exhaust the stack or the row.
  .superRefine(
    boundedJson('sessionData', { maxDepth: MAX_SESSION_DATA_DEPTH, maxChars: MAX_SESSION_DATA_CHARS }),
  );

export const trackingRoutes = {
  track: defineRoute({
    method: 'POST',
    path: '/api/sessions/track',
    auth: 'user',
    summary: 'Start tracking a session (for the post-race e-mail)',
    description:
      'The post-race e-mail names the session as the server knows it (the live session or a running replay with this `session_key`); the names in `sessionData` are kept but never mailed. Limited per account and per client address.',
    tags: ['tracking'],
    body: z.object({ sessionData: TrackedSessionDataSchema }),
    responses: {
      200: z.object({ success: z.literal(true), sessionId: z.string() }),
      ...errors(400, 401, 413, 429),
    },
  }),
  end: defineRoute({
    method: 'POST',
    path: '/api/sessions/end',
    auth: 'user',
    summary: 'End a tracked session; the post-race e-mail goes out once',
    description:
      'At most one post-race e-mail per account and session, only to a confirmed address and only for a session the server knows; `emailSent` is true for the one call that sent it. Limited per account and per client address.',
    tags: ['tracking'],
    body: z.object({ sessionId: safeString('sessionId', { max: 100 }) }),
    responses: {
      200: z.object({ success: z.literal(true), emailSent: z.boolean() }),
      ...errors(400, 401, 404, 429),
    },
  }),
};

const userIdParams = z.object({ id: safeString('id', { min: 1, max: 100 }) });

export const adminRoutes = {
  users: defineRoute({
    method: 'GET',
    path: '/admin/users',
    auth: 'admin',
    summary: 'Every account',
    tags: ['admin'],
    responses: { 200: z.object({ users: z.array(UserSchema) }), ...errors(401, 403) },
  }),
  stats: defineRoute({
    method: 'GET',
    path: '/admin/stats',
    auth: 'admin',
    summary: 'Accounts by plan and revenue',
    tags: ['admin'],
    responses: {
      200: z.object({
        totalUsers: z.number(),
        trialUsers: z.number(),
        lifetimeUsers: z.number(),
        proUsers: z.number(),
        revenueTotal: z.number(),
        totalRevenue: z.number(),
        currency: z.string(),
      }),
      ...errors(401, 403),
    },
  }),
  setPlan: defineRoute({
    method: 'PUT',
    path: '/admin/users/:id/plan',
    auth: 'admin',
    summary: 'Give a trial user lifetime access',
    tags: ['admin'],
    params: userIdParams,
    body: z.object({ plan: z.literal('lifetime') }),
    responses: { 200: z.object({ user: UserSchema }), ...errors(400, 401, 403, 404, 409) },
  }),
  deleteUser: defineRoute({
    method: 'DELETE',
    path: '/admin/users/:id',
    auth: 'admin',
    summary: 'Delete an account (never an admin)',
    tags: ['admin'],
    params: userIdParams,
    responses: { 200: z.object({ ok: z.literal(true) }), ...errors(400, 401, 403, 404, 409) },
  }),
};
