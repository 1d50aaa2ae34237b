import { codeForStatus, type ErrorCode } from '@flaglight/contract';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

/**
 * A domain error the handler turns into `{ error, code }` with its status. The code defaults to
 * the status's generic one (`codeForStatus`); give a specific one where a client acts on it.
 */
export class HttpError extends Error {
  override name = 'HttpError';
  readonly code: ErrorCode;
  constructor(
    readonly statusCode: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    code?: ErrorCode,
  ) {
    super(message);
    this.code = code ?? codeForStatus(statusCode);
  }
}

export const badRequest = (message: string) => new HttpError(400, message);
export const unauthorized = (message = 'Authentication required') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);

// Fastify's own client-fault codes, reworded for people.
const FASTIFY_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Malformed JSON in request body',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Request body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Request body does not match its Content-Length',
};

function describeValidation(error: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.');
    const message = first?.message ?? 'is invalid';
    return where ? `${where}: ${message}` : message;
  }
  return error.message;
}

/**
 * Faults the router finds before any route runs (a path segment that is not valid percent-encoded
 * UTF-8, or one past the router's length limit): Fastify's `frameworkErrors` option, so they
 * answer `{ error, code }` like every other 4xx instead of Fastify's own body.
 */
export function answerFrameworkError(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const message =
    error.code === 'FST_ERR_BAD_URL'
      ? 'The URL is not valid: a part of its path is not valid percent-encoded UTF-8'
      : error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? 'The URL is not valid: a part of its path is too long'
        : 'The request could not be routed';
  void reply.status(400).send({ error: message, code: 'invalid_input' });
}

/**
 * One error handler (CONVENTIONS.md): every 4xx/5xx answers `{ error, code }` (the contract's
 * ErrorBody). Client faults keep their status; anything else is logged with its request and
 * answered with a generic 500 that hides the details.
 */
export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof HttpError) {
      return reply.status(error.statusCode).send({ error: error.message, ...error.extra, code: error.code });
    }
    if (error.validation) {
      return reply.status(400).send({ error: describeValidation(error), code: 'invalid_input' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500 && !isResponseSerializationError(error)) {
      const message = (error.code && FASTIFY_MESSAGES[error.code]) || error.message || 'Bad request';
      return reply.status(status).send({ error: message, code: codeForStatus(status) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Internal server error', code: 'internal_error' });
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = /^\/(api|auth|admin|hue|sims)(\/|$)/.test(url);
    const wantsHtml = request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');
    // Routes live after the hash (SPEC §2): a stray path in the browser goes home.
    if (!isApi && wantsHtml) return reply.redirect('/', 302);
    return reply.status(404).send({ error: 'Not found', code: 'not_found' });
  });
}
