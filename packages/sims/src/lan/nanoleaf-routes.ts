import crypto from 'node:crypto';
import type http from 'node:http';
import { leafOf, type NanoleafLight } from './nanoleaf-light.js';
import type { NanoleafSimRequest } from './nanoleaf-types.js';
import { applyNanoleafEffects, applyNanoleafState } from './nanoleaf-writes.js';

const LOG_LIMIT = 1000;

/** What the OpenAPI reads and writes besides the light: pairing, tokens, the request log. */
export interface NanoleafController {
  light: NanoleafLight;
  tokens: Set<string>;
  /** Pairing is open until then (the simulator's clock). */
  pairingUntil: number;
  log: NanoleafSimRequest[];
  counts: { total: number; state: number; effects: number };
  identifiedAt: number | null;
}

function reply(response: http.ServerResponse, status: number, body?: unknown): number {
  if (body === undefined) response.writeHead(status).end();
  else {
    const text = JSON.stringify(body);
    response.writeHead(status, { 'content-type': 'application/json' }).end(text);
  }
  return status;
}

/** Answers one request of the OpenAPI under `/api/v1` (reference §1 "Pairing", "REST"). */
export function handleNanoleafRequest(
  controller: NanoleafController,
  request: http.IncomingMessage,
  text: string,
  response: http.ServerResponse,
): void {
  const { light } = controller;
  const now = light.now;
  const method = request.method ?? 'GET';
  const path = (request.url ?? '/').split('?')[0]!;
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'api' || parts[1] !== 'v1' || parts.length < 3) {
    reply(response, 404);
    return;
  }
  if (parts[2] === 'new' && parts.length === 3) {
    if (method !== 'POST') return void reply(response, 405);
    if (now() > controller.pairingUntil) return void reply(response, 403);
    const token = crypto
      .randomBytes(24)
      .toString('base64')
      .replace(/[^A-Za-z0-9]/g, '')
      .slice(0, 32)
      .padEnd(32, 'x');
    controller.tokens.add(token);
    return void reply(response, 200, { auth_token: token });
  }
  const token = parts[2]!;
  if (!controller.tokens.has(token)) return void reply(response, 401);
  const rest = parts.slice(3);
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = Symbol.for('malformed');
    }
  }
  const record = (status: number) => {
    const { log } = controller;
    log.push({
      at: now(),
      method,
      path: `/api/v1/<token>${rest.length ? `/${rest.join('/')}` : '/'}`,
      body,
      status,
    });
    if (log.length > LOG_LIMIT) log.splice(0, log.length - LOG_LIMIT);
    return status;
  };
  if (method === 'DELETE' && rest.length === 0) {
    controller.tokens.delete(token);
    record(reply(response, 204));
    return;
  }
  if (method === 'GET') {
    const value = leafOf(light, rest);
    record(value === undefined ? reply(response, 404) : reply(response, 200, value));
    return;
  }
  if (method !== 'PUT' || rest.length !== 1) {
    record(reply(response, 404));
    return;
  }
  const { counts } = controller;
  counts.total += 1;
  if (typeof body === 'symbol') {
    record(reply(response, 400, { error: 'malformed JSON' }));
    return;
  }
  switch (rest[0]) {
    case 'state': {
      counts.state += 1;
      const error = applyNanoleafState(light, body);
      record(error ? reply(response, 400, { error }) : reply(response, 204));
      return;
    }
    case 'effects': {
      counts.effects += 1;
      const result = applyNanoleafEffects(light, body);
      record(
        result.error
          ? reply(response, result.status, { error: result.error })
          : reply(response, result.status, result.answer),
      );
      return;
    }
    case 'identify':
      controller.identifiedAt = now();
      record(reply(response, 204));
      return;
    default:
      record(reply(response, 404));
  }
}
