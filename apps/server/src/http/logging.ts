import type { FastifyRequest } from 'fastify';
import pino, { type DestinationStream, type Logger } from 'pino';
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

/**
 * Pino serializers for Fastify's request logs: the URL is logged with its
 * secrets redacted, and so is any error message that quotes one. The fields are Fastify's own.
 */
export const LOG_SERIALIZERS = {
  req(request: FastifyRequest) {
    return {
      method: request.method,
      url: redactSecrets(request.url),
      host: request.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
  err(error: Error) {
    if (typeof error !== 'object' || error === null) return error;
    const serialized = pino.stdSerializers.err(error);
    return {
      ...serialized,
      message: redactSecrets(serialized.message),
      stack: redactSecrets(serialized.stack),
    };
  },
};

/**
 * The server's one logger: pino at LOG_LEVEL with the redacting serializers; pretty lines on a
 * terminal in development. Tests pass a destination to read what was logged.
 */
export function createLogger(
  config: Pick<Config, 'logLevel'>,
  options: { pretty?: boolean; destination?: DestinationStream } = {},
): Logger {
  const settings = {
    level: config.logLevel,
    serializers: LOG_SERIALIZERS,
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
