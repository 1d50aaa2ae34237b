// The local bridge's JSON in and out: every answer's texts cleaned, request bodies read within a
// small limit and only as a JSON object.
import type http from 'node:http';
import { cleanShownText } from '../lights/light-label.js';

const MAX_BODY_BYTES = 4_096;

/**
 * Every JSON answer: each text in it is cleaned like a light's label (`cleanShownText`). Names,
 * messages and errors quote devices, Home Assistant and the server, and what the page shows must
 * not carry a line break, a control or a bidi override from them.
 */
export function send(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(
    JSON.stringify(body, (_key, value: unknown) =>
      typeof value === 'string' ? cleanShownText(value) : value,
    ),
  );
}

/** A POST's JSON object; null when it was refused (the answer sent): not JSON, too large, malformed. */
export async function readJsonInput(
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<Record<string, unknown> | null> {
  const contentType = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (contentType !== 'application/json') {
    send(response, 415, { error: 'Send JSON (Content-Type: application/json).', code: 'invalid_input' });
    return null;
  }
  const body = await readJson(request);
  if (!body.ok) {
    send(response, body.status, { error: body.error, code: 'invalid_input' });
    return null;
  }
  return (body.value ?? {}) as Record<string, unknown>;
}

async function readJson(
  request: http.IncomingMessage,
): Promise<{ ok: true; value: unknown } | { ok: false; status: number; error: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return { ok: false, status: 413, error: 'Request body is too large' };
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    const value = JSON.parse(text) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return { ok: false, status: 400, error: 'Send a JSON object' };
    }
    return { ok: true, value };
  } catch {
    return { ok: false, status: 400, error: 'Malformed JSON in request body' };
  }
}
