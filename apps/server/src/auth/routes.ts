import { validateEmail, validateLoginForm, validateResetForm, validateSignupForm } from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../http/errors.js';
import type { TurnstileVerifier } from '../turnstile/client.js';
import { AUTH_MESSAGES, type AuthService } from './service.js';

// Generous bounds: anything longer is not an e-mail, a password or a token.
const email = z.string().max(320);
const password = z.string().max(1024);
const turnstileToken = z.string().max(4096);

const credentialsSchema = z.object({
  email,
  password,
  turnstileToken: turnstileToken.optional(),
});
const signupSchema = credentialsSchema.extend({ plan: z.literal('trial').optional() });

export interface AuthRoutesOptions {
  auth: AuthService;
  turnstile: TurnstileVerifier;
  /** Requests per minute per client for sign-in, sign-up and reset; forgot gets half. */
  rateLimitPerMinute: number;
}

export async function authRoutes(fastify: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, turnstile } = opts;
  const limit = (max: number) => ({ rateLimit: { max: Math.max(1, max), timeWindow: '1 minute' } });

  for (const url of ['/auth/login', '/api/auth/login']) {
    app.route({
      method: 'POST',
      url,
      config: limit(opts.rateLimitPerMinute),
      schema: { body: credentialsSchema },
      handler: async (request) => {
        const form = validateLoginForm({ ...request.body, botToken: request.body.turnstileToken });
        if (!form.ok) throw badRequest(form.error);
        await turnstile.verify(form.value.botToken, request.ip);
        return auth.login(form.value);
      },
    });
  }

  app.post(
    '/auth/signup',
    { config: limit(opts.rateLimitPerMinute), schema: { body: signupSchema } },
    async (request, reply) => {
      const form = validateSignupForm({ ...request.body, botToken: request.body.turnstileToken });
      if (!form.ok) throw badRequest(form.error);
      await turnstile.verify(form.value.botToken, request.ip);
      const result = await auth.signup(form.value);
      return reply.status(201).send(result);
    },
  );

  app.get('/auth/verify', async (request) => {
    const { user } = await auth.authenticate(request.headers.authorization);
    return { valid: true, user };
  });

  app.get('/api/auth/me', async (request) => {
    const { user } = await auth.authenticate(request.headers.authorization);
    return { user };
  });

  app.post('/auth/logout', async (request) => {
    await auth.logout(request.headers.authorization);
    return { ok: true };
  });

  app.post(
    '/auth/forgot-password',
    { config: limit(Math.ceil(opts.rateLimitPerMinute / 2)), schema: { body: z.object({ email }) } },
    async (request) => {
      const valid = validateEmail(request.body.email);
      if (!valid.ok) throw badRequest(valid.error);
      await auth.requestPasswordReset(valid.value);
      return { message: AUTH_MESSAGES.resetRequested };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      config: limit(opts.rateLimitPerMinute),
      schema: {
        body: z.object({
          token: z.string().max(512).optional(),
          password,
          confirmPassword: password.optional(),
        }),
      },
    },
    async (request) => {
      const form = validateResetForm({
        token: request.body.token,
        password: request.body.password,
        confirmPassword: request.body.confirmPassword ?? request.body.password,
      });
      if (!form.ok) throw badRequest(form.error);
      await auth.resetPassword(form.value);
      return { success: true, message: AUTH_MESSAGES.passwordUpdated };
    },
  );
}
