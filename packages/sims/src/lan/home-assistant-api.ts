import type http from 'node:http';
import { HaBadRequest, stateObject, type HaSimLight } from './home-assistant-lights.js';

const MAX_BODY_BYTES = 64 * 1024;

/** JSON, or plain text when `text`, with its length. */
export function reply(response: http.ServerResponse, status: number, body: unknown, text = false): void {
  const payload = text ? String(body) : JSON.stringify(body);
  response.writeHead(status, {
    'content-type': text ? 'text/plain; charset=utf-8' : 'application/json',
    'content-length': Buffer.byteLength(payload),
  });
  response.end(payload);
}

/** The request body as text; a `HaBadRequest` beyond 64 KiB. */
export async function readBody(request: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new HaBadRequest('too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface HaAnswer {
  status: number;
  body: unknown;
  /** Sent as plain text (HA's template answer). */
  text?: boolean;
}

/**
 * The routes that change nothing: `GET /api/`, `/api/config`, `/api/states[/<id>]` (the lights
 * beside a sun and a switch) and `POST /api/template` (the area template only); null for another.
 */
export function answerReadRoute(
  method: string,
  path: string,
  body: Record<string, unknown>,
  lights: ReadonlyMap<string, HaSimLight>,
): HaAnswer | null {
  if (method === 'GET' && path === '/api/') return { status: 200, body: { message: 'API running.' } };
  if (method === 'GET' && path === '/api/config')
    return {
      status: 200,
      body: { version: '2026.11.1', state: 'RUNNING', location_name: 'Flaglight demo home' },
    };
  if (method === 'GET' && path === '/api/states')
    return {
      status: 200,
      body: [
        ...[...lights.values()].map(stateObject),
        { entity_id: 'sun.sun', state: 'above_horizon', attributes: { friendly_name: 'Sun' } },
        { entity_id: 'switch.coffee_maker', state: 'off', attributes: { friendly_name: 'Coffee maker' } },
      ],
    };
  if (method === 'GET' && path.startsWith('/api/states/')) {
    const light = lights.get(decodeURIComponent(path.slice('/api/states/'.length)));
    return light
      ? { status: 200, body: stateObject(light) }
      : { status: 404, body: { message: 'Entity not found.' } };
  }
  if (method === 'POST' && path === '/api/template') {
    if (typeof body.template !== 'string' || !body.template.includes('area_name'))
      return {
        status: 400,
        body: { message: 'Error rendering template: the simulator knows the area template only' },
      };
    const pairs = [...lights.values()].map((l) => [l.spec.entityId, l.spec.area]);
    return { status: 200, body: JSON.stringify(pairs), text: true };
  }
  return null;
}
