import { escapeLogText } from '@flaglight/core';
import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import type { Config } from '../config.js';

/**
 * Query parameters that carry a secret somewhere in the app or its simulators: event-stream
 * tickets, OAuth codes and state, reset and verification tokens, keys and signatures. Matched by
 * name, so a new `*_token` or `*secret*` parameter is covered without a change here.
 */
const SECRET_PARAM = String.raw`(?:ticket|code|state|password|key|api_?key|signature|sig|[\w.-]*token[\w.-]*|[\w.-]*secret[\w.-]*)`;
const SECRET_IN_QUERY = new RegExp(String.raw`([?&;]${SECRET_PARAM}=)[^&#\s"'<>]*`, 'gi');

export const REDACTED = '[redacted]';

/** The text (a URL, or a message quoting one) with the values of secret query parameters replaced. */
export function redactSecrets<T>(text: T): T {
  // Anything but a string (a missing URL, a non-Error thrown) is passed through as it is.
  return (typeof text === 'string' ? text.replace(SECRET_IN_QUERY, `$1${REDACTED}`) : text) as T;
}

/** A text for the log: secrets redacted, then on one line (`escapeLogText`); anything else as it is. */
function logText<T>(text: T): T {
  return (typeof text === 'string' ? escapeLogText(redactSecrets(text)) : text) as T;
}

/**
 * A stack as the log keeps it: its own lines stay lines (pretty output indents them under the
 * error), but the message at its head is escaped whole, so a line break in an upstream's words
 * cannot pass for one of its frames, and no line carries a control or bidi character.
 */
function logStack(stack: string, message: string): string {
  const head =
    message !== '' && stack.includes(message) ? stack.replace(message, () => logText(message)) : stack;
  return head
    .split('\n')
    .map((line) => logText(line))
    .join('\n');
}

/**
 * Pino serializers for Fastify's request logs: the URL is logged with its secrets redacted, and
 * so is any error message that quotes one; both are escaped like every text the log takes from
 * outside (a URL and a Host header are the client's words). The fields are Fastify's own.
 */
export const LOG_SERIALIZERS = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: logText(request.url),
      host: logText(request.host),
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(error: Error) {
    if (typeof error !== 'object' || error === null) return error;
    const serialized = pino.stdSerializers.err(error);
    const message = redactSecrets(serialized.message);
    // The error's own fields (a status, an upstream's `detail`, a validation list) are texts too.
    const fields = Object.fromEntries(
      Object.entries(serialized).map(([key, value]) => [key, escapeLogValue(value, 1)]),
    );
    return {
      ...fields,
      message: logText(message),
      stack:
        typeof serialized.stack === 'string'
          ? logStack(redactSecrets(serialized.stack), message)
          : serialized.stack,
    };
  },
};

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  [Object.prototype, null].includes(Object.getPrototypeOf(value) as object | null);

/** How deep plain objects and arrays in a log call are searched for text (the app's go 2 deep). */
const LOG_FIELD_DEPTH = 4;

/** The value with every text in it escaped; copied only where something changed. */
function escapeLogValue(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return escapeLogText(value);
  if (depth >= LOG_FIELD_DEPTH) return value;
  if (Array.isArray(value)) {
    const items: readonly unknown[] = value;
    const escaped = items.map((item) => escapeLogValue(item, depth + 1));
    return escaped.some((item, index) => item !== items[index]) ? escaped : value;
  }
  if (!isPlainObject(value)) return value;
  let copy: Record<string, unknown> | null = null;
  for (const [key, item] of Object.entries(value)) {
    const escaped = escapeLogValue(item, depth + 1);
    if (escaped !== item) (copy ??= { ...value })[key] = escaped;
  }
  return copy ?? value;
}

/**
 * The arguments of every log call, as the log takes them: the message, string arguments and the
 * texts in plain objects and arrays (`{ detail, topic, error: { message } }`: what upstreams,
 * devices and clients said) escaped by `escapeLogText`, so neither the JSON line nor
 * pino-pretty's output carries a line break, a control or a bidi character from them. Errors go
 * through the `err` serializer; other objects are left as they are.
 */
export function escapeLogArguments<T extends unknown[]>(args: T): T {
  return args.map((arg) => escapeLogValue(arg, 0)) as T;
}

/**
 * The server's one logger: pino at LOG_LEVEL with the redacting serializers and every call's
 * text escaped (`escapeLogArguments`); pretty lines on a terminal in development. Tests pass a
 * destination to read what was logged.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  options: { pretty?: boolean; destination?: DestinationStream } = {},
): Logger {
  const settings: LoggerOptions = {
    level: config.logLevel,
    serializers: LOG_SERIALIZERS,
    hooks: {
      logMethod(args, method) {
        method.apply(this, escapeLogArguments(args));
      },
    },
    ...(options.pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
  return options.destination ? pino(settings, options.destination) : pino(settings);
}
