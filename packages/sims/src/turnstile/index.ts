import crypto from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../shared/clock.js';

/** Tokens live 300 s and verify once, as Cloudflare's do (reference §4.2). */
export const TURNSTILE_TOKEN_TTL_MS = 300_000;
export const DEMO_TURNSTILE_SITE_KEY = 'demo-site-key';
export const DEMO_TURNSTILE_SECRET_KEY = 'demo-secret-key';

export type TurnstileErrorCode =
  | 'missing-input-secret'
  | 'invalid-input-secret'
  | 'missing-input-response'
  | 'invalid-input-response'
  | 'bad-request'
  | 'timeout-or-duplicate'
  | 'internal-error';

export interface TurnstileSimOptions {
  secretKey?: string;
  siteKey?: string;
  now?: Clock;
}

export interface TurnstileSimControl {
  /** Issues a token as a solved widget would (what the demo checkbox calls). */
  issueToken(action?: string): string;
  /** The next `times` verifications fail with this code, whatever the token. */
  failNext(code: TurnstileErrorCode, times?: number): void;
  verifications(): number;
  reset(): void;
}

interface Issued {
  issuedAt: number;
  action: string;
  spent: boolean;
}

/**
 * A stand-in for Cloudflare Turnstile: the widget's token endpoint and `siteverify`, with the
 * real error codes, expiry and single use. Mount under a prefix (demo: /sims/turnstile).
 */
export function createTurnstileSim(options: TurnstileSimOptions = {}) {
  const secretKey = options.secretKey ?? DEMO_TURNSTILE_SECRET_KEY;
  const siteKey = options.siteKey ?? DEMO_TURNSTILE_SITE_KEY;
  const now = options.now ?? systemClock;
  const tokens = new Map<string, Issued>();
  let forced: { code: TurnstileErrorCode; times: number } | undefined;
  let verifyCount = 0;

  const control: TurnstileSimControl = {
    issueToken(action = '') {
      const token = `demo.${crypto.randomBytes(24).toString('base64url')}`;
      tokens.set(token, { issuedAt: now(), action, spent: false });
      return token;
    },
    failNext(code, times = 1) {
      forced = { code, times };
    },
    verifications: () => verifyCount,
    reset() {
      tokens.clear();
      forced = undefined;
      verifyCount = 0;
    },
  };

  function verify(body: Record<string, unknown>) {
    verifyCount += 1;
    const fail = (code: TurnstileErrorCode) => ({ success: false, 'error-codes': [code] });
    if (forced && forced.times > 0) {
      forced.times -= 1;
      return fail(forced.code);
    }
    if (typeof body.secret !== 'string' || body.secret === '') return fail('missing-input-secret');
    if (body.secret !== secretKey) return fail('invalid-input-secret');
    if (typeof body.response !== 'string' || body.response === '') return fail('missing-input-response');
    const issued = tokens.get(body.response);
    if (!issued) return fail('invalid-input-response');
    if (issued.spent || now() - issued.issuedAt > TURNSTILE_TOKEN_TTL_MS) return fail('timeout-or-duplicate');
    issued.spent = true;
    return {
      success: true,
      challenge_ts: new Date(issued.issuedAt).toISOString(),
      hostname: 'localhost',
      'error-codes': [],
      action: issued.action,
      cdata: '',
    };
  }

  async function plugin(app: FastifyInstance): Promise<void> {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    app.post('/token', async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (body.sitekey !== undefined && body.sitekey !== siteKey) {
        return reply.status(400).send({ error: 'Unknown site key' });
      }
      return { token: control.issueToken(typeof body.action === 'string' ? body.action : '') };
    });
    app.post('/siteverify', async (request) => verify((request.body ?? {}) as Record<string, unknown>));
  }

  return { plugin, control, siteKey, secretKey };
}

/** Runs the simulator on its own port (tests). */
export async function startTurnstileSim(options: TurnstileSimOptions & { port?: number } = {}) {
  const sim = createTurnstileSim(options);
  const app = Fastify();
  await app.register(sim.plugin);
  const url = await app.listen({ port: options.port ?? 0, host: '127.0.0.1' });
  return {
    url,
    control: sim.control,
    secretKey: sim.secretKey,
    siteKey: sim.siteKey,
    close: () => app.close(),
  };
}
