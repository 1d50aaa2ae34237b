import { expect } from 'vitest';
import WebSocket from 'ws';
import { paced } from '../../../scripts/test-pace.mjs';
import { RS } from '../src/f1live/protocol.js';

/** What the helpers need of a running F1 live-timing simulator (standalone or under a prefix). */
export interface F1LiveEndpoint {
  url: string;
  hubUrl: string;
}

export interface Socket {
  ws: WebSocket;
  messages: string[];
  frames: () => unknown[];
  /** Resolves with the close code. */
  closed: Promise<number>;
}

export async function negotiate(
  s: F1LiveEndpoint,
): Promise<{ token: string; cookie: string; body: Record<string, unknown> }> {
  const res = await fetch(`${s.hubUrl}/negotiate?negotiateVersion=1`, { method: 'POST' });
  expect(res.status).toBe(200);
  const body = (await res.json()) as Record<string, unknown>;
  const alb = res.headers.getSetCookie().find((c) => c.startsWith('AWSALB='))!;
  return { token: String(body.connectionToken), cookie: alb.split(';')[0]!, body };
}

export function open(
  s: F1LiveEndpoint,
  token: string,
  headers: Record<string, string> = {},
): Promise<Socket> {
  const url = `${s.hubUrl.replace(/^http/, 'ws')}?id=${encodeURIComponent(token)}`;
  const ws = new WebSocket(url, { headers });
  const messages: string[] = [];
  ws.on('message', (data: Buffer) => messages.push(data.toString('utf8')));
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        frames: () =>
          messages
            .join('')
            .split(RS)
            .filter((f) => f !== '')
            .map((f) => JSON.parse(f) as unknown),
      }),
    );
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

export async function until(check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + paced(ms);
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Negotiates, upgrades, handshakes and subscribes; resolves once the snapshot arrived. */
export async function connected(
  s: F1LiveEndpoint,
  topics: string[],
  headers: Record<string, string> = {},
): Promise<Socket> {
  const { token, cookie } = await negotiate(s);
  const socket = await open(s, token, { Cookie: cookie, ...headers });
  socket.ws.send(`{"protocol":"json","version":1}${RS}`);
  socket.ws.send(
    JSON.stringify({ type: 1, invocationId: '0', target: 'Subscribe', arguments: [topics] }) + RS,
  );
  await until(() => socket.frames().some((f) => (f as { type?: number }).type === 3));
  return socket;
}
