import { normalizeIP } from '@fastify/rate-limit';
import { api, LOGOUTS_PER_MINUTE } from '@flaglight/contract';
import {
  VALIDATION_MESSAGES,
  validateEmail,
  validateLoginForm,
  validateResetForm,
  validateSignupForm,
} from '@flaglight/core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { signedInUser } from '../http/auth.js';
import { fromContract } from '../http/contract-route.js';
import { badRequest, HttpError } from '../http/errors.js';
import { botCheckFailed, type TurnstileVerifier } from '../turnstile/client.js';
import { LoginThrottledError } from './login-throttle.js';
import { AUTH_MESSAGES, type AuthService } from './service.js';

export interface AuthRoutesOptions {
  auth: AuthService;
  turnstile: TurnstileVerifier;
  /** Requests per minute per client for sign-in, sign-up and reset; forgot gets half. */
  rateLimitPerMinute: number;
}

/** A form the core validator refused: a missing bot check is the bot check's code, the rest invalid input. */
function formError(message: string) {
  return message === VALIDATION_MESSAGES.botCheckRequired ? botCheckFailed(message) : badRequest(message);
}

export async function authRoutes(fastify: FastifyInstance, opts: AuthRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { auth, turnstile } = opts;
  const perMinute = { rateLimitPerMinute: opts.rateLimitPerMinute };
  // The two sign-in paths are one door: one counter per client for both (a route-level limit would
  // give each path its own store, doubling an attacker's guesses).
  const signInLimit = fastify.rateLimit({
    max: Math.max(1, opts.rateLimitPerMinute),
    timeWindow: '1 minute',
    keyGenerator: (request) => `sign-in:${normalizeIP(request.ip)}`,
  });

  for (const route of [api.auth.login, api.auth.testLogin]) {
    app.route({
      ...fromContract(route),
      onRequest: signInLimit,
      handler: async (request, reply) => {
        const form = validateLoginForm({ ...request.body, botToken: request.body.turnstileToken });
        if (!form.ok) throw formError(form.error);
        await turnstile.verify(form.value.botToken, request.ip);
        try {
          return await auth.login(form.value);
        } catch (error) {
          if (error instanceof LoginThrottledError) reply.header('retry-after', error.retryAfterSeconds);
          throw error;
        }
      },
    });
  }

  app.route({
    ...fromContract(api.auth.signup, perMinute),
    handler: async (request, reply) => {
      const form = validateSignupForm({ ...request.body, botToken: request.body.turnstileToken });
      if (!form.ok) throw formError(form.error);
      await turnstile.verify(form.value.botToken, request.ip);
      const result = await auth.signup(form.value);
      return reply.status(201).send(result);
    },
  });

  app.route({
    ...fromContract(api.auth.verify),
    handler: async (request) => ({ valid: true as const, user: signedInUser(request) }),
  });

  app.route({
    ...fromContract(api.auth.me),
    handler: async (request) => ({ user: signedInUser(request) }),
  });

  app.route({
    ...fromContract(api.auth.logout, { rateLimitPerMinute: LOGOUTS_PER_MINUTE }),
    handler: async (request) => {
      await auth.logout(request.headers.authorization);
      return { ok: true as const };
    },
  });

  app.route({
    ...fromContract(api.auth.forgotPassword, { rateLimitPerMinute: Math.ceil(opts.rateLimitPerMinute / 2) }),
    handler: async (request) => {
      const valid = validateEmail(request.body.email);
      if (!valid.ok) throw badRequest(valid.error);
      await auth.requestPasswordReset(valid.value);
      return { message: AUTH_MESSAGES.resetRequested };
    },
  });

  app.route({
    ...fromContract(api.auth.resetPassword, perMinute),
    handler: async (request) => {
      const form = validateResetForm({
        token: request.body.token,
        password: request.body.password,
        confirmPassword: request.body.confirmPassword ?? request.body.password,
      });
      if (!form.ok) throw badRequest(form.error);
      await auth.resetPassword(form.value);
      return { success: true as const, message: AUTH_MESSAGES.passwordUpdated };
    },
  });

  // The link from the sign-up e-mail (256 bits, single use, 48 h). It confirms only for the signed-in
  // account it was made for: the mail reaches the mailbox's owner, who may not be who signed up.
  app.route({
    ...fromContract(api.auth.verifyEmail, perMinute),
    handler: async (request) => {
      await auth.verifyEmail(request.body.token, String(signedInUser(request).id));
      return { success: true as const, message: AUTH_MESSAGES.emailVerified };
    },
  });

  app.route({
    ...fromContract(api.auth.resendVerification, perMinute),
    handler: async (request, reply) => {
      const result = await auth.resendVerification(String(signedInUser(request).id));
      if (!result.ok) {
        void reply.header('retry-after', String(result.retryAfterSeconds));
        throw new HttpError(429, result.message);
      }
      return { sent: result.sent, message: result.message };
    },
  });
}
