import { DEVICE_CODE_GRANT_TYPE } from '@flaglight/contract';
import type { TestApp } from './helper.js';

let nextAddress = 1;
/** A client address of its own, so codes asked by different tests do not share a rate limit. */
export function freshAddress(): string {
  const n = nextAddress++;
  return `10.7.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

export interface IssuedCode {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

/** A companion asks for a code (from an address of its own). */
export async function requestCode(
  t: TestApp,
  info: { name: string; platform: string; version: string } = {
    name: 'Living-room PC',
    platform: 'win32-x64',
    version: '1.0.0',
  },
): Promise<IssuedCode> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/device/code',
    payload: info,
    remoteAddress: freshAddress(),
  });
  if (res.statusCode !== 200) throw new Error(`code refused: ${res.body}`);
  return res.json<IssuedCode>();
}

/** One token poll of the companion. */
export function pollToken(t: TestApp, deviceCode: string, grantType = DEVICE_CODE_GRANT_TYPE) {
  return t.app.inject({
    method: 'POST',
    url: '/api/device/token',
    payload: { grant_type: grantType, device_code: deviceCode },
    remoteAddress: freshAddress(),
  });
}

/** The signed-in user approves or denies a user code. */
export function decide(t: TestApp, bearer: string, code: string, decision: 'approve' | 'deny') {
  return t.app.inject({
    method: 'POST',
    url: `/api/device/${decision}`,
    payload: { code },
    headers: { authorization: `Bearer ${bearer}` },
  });
}

/** Links a companion to the account of `bearer` (a session token); returns the device token and id. */
export async function linkDevice(t: TestApp, bearer: string): Promise<{ token: string; id: string }> {
  const code = await requestCode(t);
  const approved = await decide(t, bearer, code.user_code, 'approve');
  if (approved.statusCode !== 200) throw new Error(`approve refused: ${approved.body}`);
  const res = await pollToken(t, code.device_code);
  if (res.statusCode !== 200) throw new Error(`token refused: ${res.body}`);
  const body = res.json<{ access_token: string; device: { id: string } }>();
  return { token: body.access_token, id: body.device.id };
}
