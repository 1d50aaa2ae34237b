import { isWellFormedText, TEXT_MESSAGES } from '@flaglight/contract';
import type { FastifyInstance } from 'fastify';
import { HttpError } from './errors.js';

/**
 * No route's body nests deeper than this; free-form fields have tighter limits of their own
 * (sessionData: MAX_SESSION_DATA_DEPTH). A deeper document is refused before any schema or
 * handler walks it, so nothing recursive meets a 10,000-level body.
 */
export const MAX_BODY_DEPTH = 32;

type Fault = { kind: 'depth' } | { kind: 'unicode'; where: string };

/** The first lone surrogate (in a key or a string) or excess depth in a parsed value; no recursion. */
export function findInputFault(value: unknown, maxDepth = MAX_BODY_DEPTH): Fault | null {
  const stack: Array<{ node: unknown; depth: number; where: string }> = [
    { node: value, depth: 0, where: '' },
  ];
  while (stack.length > 0) {
    const { node, depth, where } = stack.pop()!;
    if (typeof node === 'string') {
      if (!isWellFormedText(node)) return { kind: 'unicode', where };
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= maxDepth) return { kind: 'depth' };
    for (const [key, child] of Object.entries(node)) {
      const path = where ? `${where}.${key}` : key;
      if (!isWellFormedText(key)) return { kind: 'unicode', where: where || 'a field name' };
      stack.push({ node: child, depth: depth + 1, where: path });
    }
  }
  return null;
}

function describe(fault: Fault, part: 'body' | 'query' | 'params'): string {
  if (fault.kind === 'depth')
    return `The request ${part} is nested too deeply (at most ${MAX_BODY_DEPTH} levels)`;
  // A name the client chose could itself hold the lone surrogate: only well-formed paths are echoed.
  const name =
    fault.where && isWellFormedText(fault.where) ? fault.where.slice(0, 100) : `the request ${part}`;
  return TEXT_MESSAGES.notUnicode(name);
}

/**
 * One check before every route's schema (DESIGN §9: a bad input is a 400, never a 5xx): text that
 * is not well-formed Unicode anywhere in the body, query or path, and bodies nested beyond
 * MAX_BODY_DEPTH, are refused with `invalid_input`. A lone surrogate cannot be encoded as UTF-8,
 * so it would otherwise fail later in a URL encoder, an SDK or a header.
 */
export function registerInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of ['params', 'query', 'body'] as const) {
      const fault = findInputFault(request[part]);
      if (fault) throw new HttpError(400, describe(fault, part));
    }
  });
}
