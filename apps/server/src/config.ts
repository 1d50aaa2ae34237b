import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { normalizeEmail, validateEmail } from '@flaglight/core';
import { z } from 'zod';

/**
 * The only reader of process.env (CONVENTIONS.md). Parsed once at start; a bad value stops the
 * server with one line naming the variable.
 */

/**
 * Where `npm run package -w @flaglight/companion` leaves the companion's builds: demo mode serves
 * them when DOWNLOADS_DIR is unset. Found from this file, so the server's working folder does not matter.
 */
export const COMPANION_BUILD_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../companion/dist',
);

const emptyToUndefined = (value: unknown) =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z.preprocess(emptyToUndefined, z.string().trim().min(1).optional());
const optionalUrl = z.preprocess(
  emptyToUndefined,
  z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
);

/** A TCP/UDP port (0: any free one). */
const port = (fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a port number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(fallback),
  );

const envSchema = z.object({
  FLAGLIGHT_MODE: z.preprocess(
    emptyToUndefined,
    z.enum(['demo', 'live'], { error: 'must be "demo" or "live"' }).optional(),
  ),
  NODE_ENV: z.preprocess(emptyToUndefined, z.string().optional()),
  PORT: port(3000),
  // Unset: demo mode listens on loopback only (its simulators show reset links), live mode everywhere.
  HOST: z.preprocess(emptyToUndefined, z.string().optional()),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((value, ctx) => {
        const parsed = parseTrustProxy(value);
        if (parsed.ok) return parsed.value;
        ctx.addIssue({ code: 'custom', message: parsed.error });
        return z.NEVER;
      }),
  ),
  PUBLIC_URL: optionalUrl,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('./data')),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^(postgres|postgresql):\/\//.test(v) || /^(sqlite|file):/.test(v), {
        message: 'must be a postgres:// URL or sqlite:<file path>',
      })
      .optional(),
  ),
  REDIS_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), { message: 'must be a redis:// URL' })
      .optional(),
  ),
  REDIS_KEY_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\w:.-]{1,64}$/, 'must be 1-64 letters, digits, or _ : . -')
      .default('flaglight:'),
  ),
  APP_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, 'must be at least 32 characters (e.g. openssl rand -hex 32)').optional(),
  ),
  ADMIN_EMAILS: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      // The same normal form as every stored and looked-up address (trim, NFKC, lower-case); an
      // entry with an invisible or control character is refused, not cleaned.
      .transform((v) =>
        v
          .split(',')
          .filter((e) => e.trim() !== '')
          .map((e) => {
            const normalized = normalizeEmail(e);
            return normalized.ok ? normalized.value : null;
          }),
      )
      .refine((list) => list.every((e) => e !== null && validateEmail(e).ok), {
        message: 'must be a comma-separated list of e-mail addresses',
      })
      .transform((list) => list.filter((e) => e !== null)),
  ),
  OPENF1_BASE_URL: optionalUrl,
  OPENF1_USERNAME: optionalString,
  OPENF1_PASSWORD: optionalString,
  OPENF1_MQTT_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^(mqtts?|wss?):\/\//.test(v), { message: 'must be an mqtt(s):// or ws(s):// URL' })
      .optional(),
  ),
  /** `off`, `on` (the default: F1's own hub, or the simulator in demo mode) or a hub URL. */
  F1_LIVE_TIMING: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => v === 'off' || v === 'on' || /^https?:\/\/\S+$/.test(v), {
        message: 'must be off, on, or an http(s) URL of the live-timing hub',
      })
      .optional(),
  ),
  JOLPICA_BASE_URL: optionalUrl,
  TURNSTILE_SITE_KEY: optionalString,
  TURNSTILE_SECRET_KEY: optionalString,
  TURNSTILE_VERIFY_URL: optionalUrl,
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl,
  HUE_CLIENT_ID: optionalString,
  HUE_CLIENT_SECRET: optionalString,
  HUE_API_URL: optionalUrl,
  LIFX_API_URL: optionalUrl,
  GOVEE_API_URL: optionalUrl,
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), { message: 'must be an smtp:// or smtps:// URL' })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().default('Flaglight <no-reply@flaglight.app>')),
  SUPPORT_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email('must be an e-mail address').default('support@flaglight.app'),
  ),
  DOWNLOADS_DIR: optionalString,
  // Demo mode's LAN simulator on 127.0.0.1: LIFX discovery (UDP) and the Hue bridge (HTTPS); 0 = ephemeral.
  DEMO_LIFX_LAN_PORT: port(0),
  DEMO_HUE_BRIDGE_PORT: port(0),
  // Demo mode's race: `loop` joins shortly before its eventful stretch and loops it (a newcomer sees
  // the flags move within a minute); `full` joins before the start and plays to the chequered flag.
  DEMO_RACE: z.preprocess(
    emptyToUndefined,
    z.enum(['loop', 'full'], { error: 'must be loop or full' }).default('loop'),
  ),
  AUTH_RATE_LIMIT_PER_MINUTE: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(10),
  ),
  MAX_STREAMS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: 'must be a number' })
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .default(10_000),
  ),
});

export type Env = z.input<typeof envSchema>;

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const TRUST_PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(entry: string): boolean {
  if (TRUST_PROXY_RANGES.includes(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: who may tell us the client's address in X-Forwarded-For. Unset, `false` or `0`:
 * nobody, the socket address is the client. A hop count (`1` behind one reverse proxy) or a
 * comma-separated list of proxy addresses/CIDRs. `true` (trust every hop) is refused: any client
 * could then pick its own address and walk past every per-client rate limit. The value is
 * Fastify's `trustProxy`.
 */
export function parseTrustProxy(
  value: string | undefined,
): { ok: true; value: false | number | string[] } | { ok: false; error: string } {
  const text = value?.trim().toLowerCase();
  if (text === undefined || text === '' || text === 'false' || text === 'off' || text === '0') {
    return { ok: true, value: false };
  }
  if (text === 'true') {
    return {
      ok: false,
      error:
        'must not be "true" (any client could then choose its own address): give the number of proxies in front of the app (e.g. 1) or their addresses',
    };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10
      ? { ok: true, value: hops }
      : { ok: false, error: 'must be a hop count between 0 and 10, or a list of proxy addresses' };
  }
  const entries = text.split(',').map((entry) => entry.trim());
  return entries.every(isAddressOrCidr)
    ? { ok: true, value: entries }
    : {
        ok: false,
        error: 'must be a hop count (e.g. 1) or a comma-separated list of proxy IP addresses or CIDRs',
      };
}

export interface Config {
  mode: 'demo' | 'live';
  production: boolean;
  port: number;
  /** Where to listen: HOST, else 127.0.0.1 in demo mode and 0.0.0.0 in live mode. */
  host: string;
  /** Whether HOST was given (demo mode then warns that its simulators are reachable). */
  hostFromEnv: boolean;
  /**
   * Fastify's `trustProxy`: false (the socket address is the client), a hop count, or the
   * addresses/CIDRs of the proxies whose X-Forwarded-For is believed (TRUST_PROXY).
   */
  trustProxy: false | number | string[];
  /** Public origin used in links (e-mails, OAuth callbacks); defaults to http://localhost:PORT. */
  publicUrl: string;
  /**
   * The origins the app is served at, derived from PUBLIC_URL only (never from a request): its own
   * origin and, when it names a loopback host, the same scheme and port at localhost, 127.0.0.1 and
   * [::1]. A browser's redirect back to the app (checkout's return) may go to any of them.
   */
  appOrigins: string[];
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  dataDir: string;
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
  redisUrl: string | undefined;
  /** Prefix of every Redis key and channel (several deployments or test runs can share one Redis). */
  redisKeyPrefix: string;
  appSecret: string | undefined;
  adminEmails: string[];
  supportEmail: string;
  mailFrom: string;
  smtpUrl: string | undefined;
  /** Desktop builds (routes in downloads/); demo mode without DOWNLOADS_DIR: COMPANION_BUILD_DIR. */
  downloadsDir: string | undefined;
  /** Sign-in, sign-up and reset attempts per client per minute (forgot-password gets half). */
  authRateLimitPerMinute: number;
  /**
   * Event streams this instance holds open at most; beyond it new ones get 503 with Retry-After.
   * Keep it below the open-file limit (`ulimit -n`) less a few hundred for everything else.
   */
  maxStreams: number;
  /** Outside services. An unset URL (demo mode only) means the in-process simulator. */
  openf1: { baseUrl: string | undefined; username?: string; password?: string; mqttUrl?: string };
  /**
   * F1 live timing, the second live source (decision 021): null when off; `url` undefined means
   * demo mode's simulator, which tells the OpenF1 simulator's race (so it is on only when OpenF1 is
   * the simulator too: a test's own OpenF1 recording has no F1 feed to match).
   */
  f1Live: { url: string | undefined } | null;
  jolpica: { baseUrl: string | undefined };
  turnstile: { siteKey?: string; secretKey?: string; verifyUrl: string | undefined };
  stripe: { secretKey?: string; webhookSecret?: string; apiUrl?: string };
  hue: { clientId?: string; clientSecret?: string; apiUrl: string | undefined };
  lifx: { apiUrl: string };
  /** Govee's platform API, called by the server only (reference §2.2); unset in demo: the simulator. */
  govee: { apiUrl: string | undefined };
  /** Demo mode's LAN simulator ports on 127.0.0.1 (0 = ephemeral; /sims/lan/state names them). */
  lanSim: { lifxPort: number; hueBridgePort: number };
  /** Demo mode's race: loop its eventful stretch, or play it whole (DEMO_RACE). */
  demoRace: 'loop' | 'full';
}

/** F1's own hub (reference f1-live-timing.md §1). */
export const F1_LIVE_TIMING_HUB = 'https://livetiming.formula1.com/signalrcore';

function f1LiveSetting(value: string | undefined, demo: boolean, ownOpenF1: boolean): Config['f1Live'] {
  if (value === 'off') return null;
  if (value !== undefined && value !== 'on') return { url: value.replace(/\/+$/, '') };
  if (!demo) return { url: F1_LIVE_TIMING_HUB };
  // Demo mode: the simulator mirrors the OpenF1 simulator; against another OpenF1 it would tell another race.
  return ownOpenF1 && value === undefined ? null : { url: undefined };
}

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * PUBLIC_URL's origin, and its loopback twins when it is on loopback (demo mode is opened at
 * http://localhost:PORT or http://127.0.0.1:PORT alike; both names reach this computer only).
 */
export function deriveAppOrigins(publicUrl: string): string[] {
  const url = new URL(publicUrl);
  if (!LOOPBACK_HOSTS.includes(url.hostname)) return [url.origin];
  const twins = LOOPBACK_HOSTS.map((host) => {
    const twin = new URL(url.origin);
    twin.hostname = host;
    return twin.origin;
  });
  return [url.origin, ...twins.filter((origin) => origin !== url.origin)];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LIVE_KEYS = [
  'OPENF1_USERNAME',
  'TURNSTILE_SECRET_KEY',
  'STRIPE_SECRET_KEY',
  'HUE_CLIENT_ID',
  'SMTP_URL',
] as const;

/**
 * Parses the environment into a Config. Throws ConfigError with one line naming the variable.
 * Demo mode (no real keys, or FLAGLIGHT_MODE=demo) points every outside service at the simulators
 * served on the app's own origin under /sims/ (DESIGN §4, §5.5).
 */
export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = envSchema.safeParse(env);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = issue?.path.join('.') ?? 'environment';
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}`);
  }
  const e = result.data;
  const mode = e.FLAGLIGHT_MODE ?? (LIVE_KEYS.some((k) => e[k] !== undefined) ? 'live' : 'demo');
  const production = e.NODE_ENV === 'production';

  if ((e.OPENF1_USERNAME === undefined) !== (e.OPENF1_PASSWORD === undefined)) {
    throw new ConfigError('Invalid configuration: OPENF1_USERNAME and OPENF1_PASSWORD must be set together');
  }
  if (mode === 'live' && !e.APP_SECRET) {
    throw new ConfigError(
      'Invalid configuration: APP_SECRET is required in live mode (at least 32 characters)',
    );
  }
  if (mode === 'live' && !e.TURNSTILE_SECRET_KEY) {
    throw new ConfigError('Invalid configuration: TURNSTILE_SECRET_KEY is required in live mode');
  }
  if (mode === 'live' && !e.TURNSTILE_SITE_KEY) {
    throw new ConfigError('Invalid configuration: TURNSTILE_SITE_KEY is required in live mode');
  }

  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const demo = mode === 'demo';
  // In demo mode an unset URL stays unset: the composition root points it at the in-process simulator.
  const serviceUrl = (value: string | undefined, live: string) =>
    (value ?? (demo ? undefined : live))?.replace(/\/+$/, '');
  const dataDir = path.resolve(e.DATA_DIR);

  let database: Config['database'];
  if (e.DATABASE_URL && /^postgres(ql)?:\/\//.test(e.DATABASE_URL)) {
    database = { kind: 'postgres', url: e.DATABASE_URL };
  } else if (e.DATABASE_URL) {
    database = { kind: 'sqlite', file: path.resolve(e.DATABASE_URL.replace(/^(sqlite|file):(\/\/)?/, '')) };
  } else {
    database = { kind: 'sqlite', file: path.join(dataDir, 'flaglight.db') };
  }

  return {
    mode,
    production,
    port,
    host: e.HOST ?? (demo ? '127.0.0.1' : '0.0.0.0'),
    hostFromEnv: e.HOST !== undefined,
    trustProxy: e.TRUST_PROXY ?? false,
    publicUrl,
    appOrigins: deriveAppOrigins(publicUrl),
    logLevel: e.LOG_LEVEL,
    dataDir,
    database,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    appSecret: e.APP_SECRET,
    adminEmails: e.ADMIN_EMAILS,
    supportEmail: e.SUPPORT_EMAIL,
    mailFrom: e.MAIL_FROM,
    smtpUrl: e.SMTP_URL,
    downloadsDir: e.DOWNLOADS_DIR ? path.resolve(e.DOWNLOADS_DIR) : demo ? COMPANION_BUILD_DIR : undefined,
    lanSim: { lifxPort: e.DEMO_LIFX_LAN_PORT, hueBridgePort: e.DEMO_HUE_BRIDGE_PORT },
    demoRace: e.DEMO_RACE,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    maxStreams: e.MAX_STREAMS,
    openf1: {
      baseUrl: serviceUrl(e.OPENF1_BASE_URL, 'https://api.openf1.org'),
      ...(e.OPENF1_USERNAME ? { username: e.OPENF1_USERNAME } : {}),
      ...(e.OPENF1_PASSWORD ? { password: e.OPENF1_PASSWORD } : {}),
      ...(e.OPENF1_MQTT_URL ? { mqttUrl: e.OPENF1_MQTT_URL } : {}),
    },
    f1Live: f1LiveSetting(e.F1_LIVE_TIMING, demo, e.OPENF1_BASE_URL !== undefined),
    jolpica: { baseUrl: serviceUrl(e.JOLPICA_BASE_URL, 'https://api.jolpi.ca') },
    turnstile: {
      ...(e.TURNSTILE_SITE_KEY ? { siteKey: e.TURNSTILE_SITE_KEY } : {}),
      ...(e.TURNSTILE_SECRET_KEY ? { secretKey: e.TURNSTILE_SECRET_KEY } : {}),
      verifyUrl: serviceUrl(
        e.TURNSTILE_VERIFY_URL,
        'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      ),
    },
    stripe: {
      ...(e.STRIPE_SECRET_KEY ? { secretKey: e.STRIPE_SECRET_KEY } : {}),
      ...(e.STRIPE_WEBHOOK_SECRET ? { webhookSecret: e.STRIPE_WEBHOOK_SECRET } : {}),
      ...(e.STRIPE_API_URL ? { apiUrl: e.STRIPE_API_URL } : {}),
    },
    hue: {
      ...(e.HUE_CLIENT_ID ? { clientId: e.HUE_CLIENT_ID } : {}),
      ...(e.HUE_CLIENT_SECRET ? { clientSecret: e.HUE_CLIENT_SECRET } : {}),
      apiUrl: serviceUrl(e.HUE_API_URL, 'https://api.meethue.com'),
    },
    govee: { apiUrl: serviceUrl(e.GOVEE_API_URL, 'https://openapi.api.govee.com') },
    lifx: {
      // The LIFX driver runs in the browser (SPEC §3 keeps the token there): a same-origin path in demo.
      apiUrl: (e.LIFX_API_URL ?? (demo ? '/sims/lifx/v1' : 'https://api.lifx.com/v1')).replace(/\/+$/, ''),
    },
  };
}
