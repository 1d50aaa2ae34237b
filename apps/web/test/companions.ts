import type { DeviceLight, LinkedDevice } from '@flaglight/contract';

/** Test data for the desktop companions: lights as a companion reports them, a linked companion. */

/** LAN lights; the second is unreachable. */
export function lanLights(count: number, provider: DeviceLight['provider'] = 'lifx_lan'): DeviceLight[] {
  return Array.from({ length: count }, (_, i) => ({
    provider,
    id: provider === 'lifx_lan' ? `d073d5${String(i).padStart(6, '0')}` : `uuid-${i + 1}`,
    label: provider === 'lifx_lan' ? `Lan bulb ${i + 1}` : `Hue light ${i + 1}`,
    reachable: i !== 1,
  }));
}

/** A linked companion as `GET /api/devices` lists it (online, three LIFX LAN lights). */
export function companion(over: Partial<LinkedDevice> = {}): LinkedDevice {
  return {
    id: 'dev-1',
    name: 'Living-room PC',
    platform: 'win32-x64',
    version: '1.0.0',
    linkedAt: '2026-11-25T10:00:00.000Z',
    lastSeenAt: '2026-11-25T10:00:00.000Z',
    online: true,
    lights: lanLights(3),
    lightsUpdatedAt: '2026-11-25T10:00:00.000Z',
    state: null,
    stateUpdatedAt: null,
    ...over,
  };
}
