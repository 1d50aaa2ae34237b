import type { APIRequestContext } from '@playwright/test';
import { expect } from '../fixtures';
import { hueSimLights, lifxBulbs } from '../page-models/light-control';

// What the demo's virtual cloud lights show, in words a failing "as it was" reads well in, and the
// account's preferences changed as another browser would: the cloud-room and looks journeys share them.

/** Changes the account's preferences through the API, as another browser would. */
export async function savePreferences(
  request: APIRequestContext,
  token: string,
  patch: object,
): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const current = (await (await request.get('/api/me/preferences', { headers })).json()) as {
    version: number;
    preferences: object;
  };
  const response = await request.put('/api/me/preferences', {
    headers,
    data: { version: current.version, preferences: { ...current.preferences, ...patch } },
  });
  expect(response.status(), await response.text()).toBe(200);
}

export interface GoveeView {
  device: string;
  deviceName: string;
  on: boolean;
  hex: string;
  brightness: number;
}

/** The Govee simulator's first four devices, with their brightness. */
export async function goveeLooks(request: APIRequestContext): Promise<GoveeView[]> {
  const response = await request.get('/sims/govee/_control/devices');
  return ((await response.json()) as { devices: GoveeView[] }).devices.slice(0, 4);
}

/** The first four LIFX bulbs: "label: off", or "label: hue|white saturation brightness". */
export const lifxRoom = async (request: APIRequestContext) =>
  (await lifxBulbs(request))
    .slice(0, 4)
    .map((b) =>
      b.power === 'off'
        ? `${b.label}: off`
        : `${b.label}: ${b.saturation > 0 ? Math.round(b.hue) : 'white'} ${b.saturation.toFixed(2)} ${b.brightness.toFixed(2)}`,
    );

/** Every Hue light: "label: off", or "label: x,y brightness". */
export const hueRoom = async (request: APIRequestContext) =>
  (await hueSimLights(request)).map((l) =>
    l.on
      ? `${l.label}: ${l.xy.x.toFixed(3)},${l.xy.y.toFixed(3)} ${l.brightness.toFixed(2)}`
      : `${l.label}: off`,
  );

/** The first four Govee devices: "name: off", or "name: hex brightness". */
export const goveeRoom = async (request: APIRequestContext) =>
  (await goveeLooks(request)).map((d) =>
    d.on ? `${d.deviceName}: ${d.hex} ${d.brightness}` : `${d.deviceName}: off`,
  );
