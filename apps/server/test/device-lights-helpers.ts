import type { DeviceLight } from '@flaglight/contract';
import { expect, vi } from 'vitest';
import type { TestApp } from './helper.js';
import { readSse, type SseEvent } from './live-helpers.js';

export const LIGHTS: DeviceLight[] = [
  { provider: 'lifx_lan', id: 'd073d5000001', label: 'Lamp', reachable: true },
  { provider: 'hue_local', id: '5f1e2a8c-1b2c-4d3e-8f90-0a1b2c3d4e5f', label: 'Hue go', reachable: false },
  { provider: 'nanoleaf', id: 's19240a1001', label: 'Shapes Living room', reachable: true },
];

export function lightsOf(count: number): DeviceLight[] {
  return Array.from({ length: count }, (_, i) => ({
    provider: 'lifx_lan',
    id: `d073d5${i.toString(16).padStart(6, '0')}`,
    label: `Bulb ${i + 1}`,
    reachable: true,
  }));
}

export function api(t: TestApp) {
  const auth = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});
  return {
    report: (token: string | undefined, payload: unknown, remoteAddress?: string) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/device/lights',
        headers: auth(token),
        payload: payload as object,
        ...(remoteAddress ? { remoteAddress } : {}),
      }),
    list: (token: string) => t.app.inject({ method: 'GET', url: '/api/devices', headers: auth(token) }),
    test: (token: string | undefined, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url: '/api/devices/test',
        headers: auth(token),
        payload: payload as object,
      }),
  };
}

/** Opens an event stream with a session or device token over real HTTP and collects its events. */
export async function openStream(
  t: TestApp,
  origin: string,
  token: string,
  sessionKey: number,
  ticketFrom = t,
) {
  const ticket = await ticketFrom.app.inject({
    method: 'POST',
    url: '/api/live/ticket',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(ticket.statusCode).toBe(200);
  const controller = new AbortController();
  const res = await fetch(
    `${origin}/api/live/events?ticket=${String(ticket.json().ticket)}&sessionKey=${sessionKey}`,
    { signal: controller.signal },
  );
  expect(res.status).toBe(200);
  const events: SseEvent[] = [];
  readSse(res.body!, (event) => events.push(event));
  await vi.waitFor(() => expect(events.some((e) => e.event === 'status')).toBe(true));
  return {
    events,
    of: (type: string) => events.filter((e) => e.event === type).map((e) => JSON.parse(e.data!) as unknown),
    close: () => controller.abort(),
  };
}

export async function userIdOf(t: TestApp, session: string): Promise<string> {
  const me = await t.app.inject({
    method: 'GET',
    url: '/api/auth/me',
    headers: { authorization: `Bearer ${session}` },
  });
  return String(me.json().user.id);
}
