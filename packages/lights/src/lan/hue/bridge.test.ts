import { startLocalHueBridge, type LocalHueBridge } from '@flaglight/sims';
import { afterEach, describe, expect, test } from 'vitest';
import { LightError } from '../../errors.js';
import {
  fetchHueBridgeConfig,
  findPairedHueBridgeAt,
  hueDeviceType,
  pairHueBridge,
  parseHueBridgeConfig,
} from './bridge.js';
import { HUE_CERTIFICATE_CHANGED } from './https.js';

let bridges: LocalHueBridge[] = [];
afterEach(async () => {
  await Promise.all(bridges.map((b) => b.close()));
  bridges = [];
});

async function bridge(mac?: string) {
  const b = await startLocalHueBridge(mac ? { mac } : {});
  bridges.push(b);
  return b;
}

describe('Hue bridge identity', () => {
  test('GET /api/0/config over HTTPS gives the id (lower case), software and the certificate fingerprint', async () => {
    const b = await bridge();
    expect(await fetchHueBridgeConfig(b.url)).toEqual({
      bridgeId: b.id,
      name: 'Flaglight LAN bridge',
      swversion: '1970084010',
      apiversion: '1.70.0',
      modelid: 'BSB002',
      fingerprint256: b.fingerprint256,
    });
  });

  test('a bridge without CLIP v2 is refused, saying why', () => {
    const config = { bridgeid: '001788FFFE6A2B3D', name: 'Old', apiversion: '1.16.0' };
    const round = parseHueBridgeConfig({ ...config, modelid: 'BSB001', swversion: '01041302' });
    expect(round).toEqual({ ok: false, error: expect.stringMatching(/BSB001\) has no CLIP v2/) });
    const old = parseHueBridgeConfig({ ...config, modelid: 'BSB002', swversion: '1941132080' });
    expect(old).toEqual({ ok: false, error: expect.stringMatching(/too old for CLIP v2/) });
    expect(parseHueBridgeConfig({ hello: 'world' }).ok).toBe(false);
    expect(parseHueBridgeConfig({ ...config, modelid: 'BSB003', swversion: '1970084010' })).toMatchObject({
      ok: true,
      config: { bridgeId: '001788fffe6a2b3d', modelid: 'BSB003' },
    });
  });

  test('a stored pin that another bridge does not match is refused before any request', async () => {
    const paired = await bridge();
    const other = await bridge('00:17:88:01:02:03');
    await expect(
      fetchHueBridgeConfig(other.url, { bridgeId: paired.id, fingerprint256: paired.fingerprint256 }),
    ).rejects.toMatchObject({ kind: 'auth', message: HUE_CERTIFICATE_CHANGED });
    expect(
      await fetchHueBridgeConfig(paired.url, { bridgeId: paired.id, fingerprint256: paired.fingerprint256 }),
    ).toMatchObject({
      bridgeId: paired.id,
    });
  });
});

describe('a paired bridge looked for at another address', () => {
  test('found at its new address by its id and the certificate stored at pairing', async () => {
    const paired = await bridge();
    const pin = { bridgeId: paired.id, fingerprint256: paired.fingerprint256 };
    const before = paired.url;
    await paired.move();
    expect(await findPairedHueBridgeAt(before, pin)).toEqual({ kind: 'silent' });
    expect(await findPairedHueBridgeAt(paired.url, pin)).toMatchObject({
      kind: 'same',
      config: { bridgeId: paired.id, fingerprint256: paired.fingerprint256 },
    });
  });

  test('a device with its id and another certificate is told apart from another bridge, and gets no key', async () => {
    const paired = await bridge();
    const pin = { bridgeId: paired.id, fingerprint256: paired.fingerprint256 };
    // Same MAC, so the same id and CN, and a certificate of its own: a reset bridge, or an impostor.
    const lookalike = await bridge('00:17:88:6a:2b:3d');
    expect(lookalike.id).toBe(paired.id);
    expect(await findPairedHueBridgeAt(lookalike.url, pin)).toMatchObject({
      kind: 'certificate-changed',
      config: { bridgeId: paired.id },
    });
    const other = await bridge('00:17:88:01:02:03');
    expect(await findPairedHueBridgeAt(other.url, pin)).toEqual({ kind: 'other' });
    // Only the keyless config was read: no CLIP request, no pairing.
    expect(lookalike.commands()).toEqual([]);
    expect(lookalike.view().applications).toBe(0);
  });
});

describe('Hue pairing (link button)', () => {
  test('answers 101 until the link button is pressed, then returns the keys and the pin', async () => {
    const b = await bridge();
    const waits: number[] = [];
    const pairing = await pairHueBridge(b.url, {
      deviceType: hueDeviceType('race desk'),
      pollMs: 30,
      onWaiting: ({ remainingMs }) => {
        waits.push(remainingMs);
        if (waits.length === 2) b.pressLinkButton();
      },
    });
    expect(waits).toHaveLength(2);
    expect(pairing).toEqual({
      applicationKey: expect.stringMatching(/^.{20,}$/),
      clientKey: expect.stringMatching(/^[0-9A-F]{32}$/),
      bridgeId: b.id,
      fingerprint256: b.fingerprint256,
    });
    expect(b.view().applications).toBe(1);
  });

  test('gives up when nobody presses the button, and stops when cancelled', async () => {
    const b = await bridge();
    await expect(
      pairHueBridge(b.url, { deviceType: 'flaglight#pc', timeoutMs: 150, pollMs: 30 }),
    ).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/link button/),
    });
    const controller = new AbortController();
    const cancelled = pairHueBridge(b.url, {
      deviceType: 'flaglight#pc',
      pollMs: 30,
      signal: controller.signal,
      onWaiting: () => controller.abort(),
    });
    await expect(cancelled).rejects.toBeInstanceOf(LightError);
    await expect(pairHueBridge(b.url, { deviceType: 'x'.repeat(41) })).rejects.toMatchObject({
      kind: 'bad-request',
    });
  });

  test('device type: flaglight#<computer>, at most 40 characters', () => {
    expect(hueDeviceType('DESKTOP-7QK2')).toBe('flaglight#DESKTOP-7QK2');
    expect(hueDeviceType('a'.repeat(60))).toHaveLength(40);
    expect(hueDeviceType('')).toBe('flaglight#pc');
  });
});
