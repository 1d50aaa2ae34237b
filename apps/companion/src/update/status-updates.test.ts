import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { FakeElement, renderStatusPage } from '../../test/status-page-dom.js';
import { startLocalBridge, type LocalBridge } from '../bridge/local-bridge.js';
import { STATUS_PAGE_SCRIPT } from '../bridge/status-page.js';
import { createLogger } from '../system/log.js';
import { StateFile } from '../system/state-file.js';
import { publicKeyText, signManifest } from './manifest.js';
import { createUpdater, type Updater } from './updater.js';

// The status page's Updates card: the local bridge with a real updater, against a real HTTP server.
const key = crypto.generateKeyPairSync('ed25519');
const HOSTILE_NOTES = 'Fixes.\n\u202EgnitirW <img src=x onerror=alert(1)>\u0007';
let manifestServer: http.Server;
let bridge: LocalBridge;
let updater: Updater;
let dir: string;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-update-page-'));
  const signed = signManifest(
    {
      product: 'flaglight-companion',
      version: '0.3.0',
      channel: 'stable',
      released: new Date().toISOString(),
      expires: new Date(Date.now() + 86_400_000).toISOString(),
      notes: HOSTILE_NOTES,
      files: {
        'linux-x64': {
          file: 'flaglight-companion-linux-x64',
          url: 'flaglight-linux',
          size: 9,
          sha256: 'a'.repeat(64),
        },
      },
    },
    key.privateKey,
  );
  manifestServer = http.createServer((_q, r) => r.end(JSON.stringify(signed)));
  await new Promise<void>((resolve) => manifestServer.listen(0, '127.0.0.1', resolve));
  const store = new StateFile(dir);
  store.load();
  updater = createUpdater({
    server: `http://127.0.0.1:${(manifestServer.address() as AddressInfo).port}`,
    enabled: true,
    store,
    log: createLogger({ console: false }),
    executable: null,
    isQuiet: () => true,
    install: () => Promise.resolve({ ok: false, message: 'not in this test' }),
    running: '0.2.0',
    platform: 'linux-x64',
    trustedKeys: [publicKeyText(key.publicKey)],
    firstCheckMs: 3_600_000,
  });
  bridge = await startLocalBridge({
    port: 0,
    appOrigins: ['http://localhost:3000'],
    actions: {
      status: () => ({ version: '0.2.0', platform: process.platform, linked: true, updates: updater.view() }),
      test: () => false,
      setPaused: () => undefined,
      rescan: () => Promise.resolve(),
      pairHue: () => Promise.resolve({ ok: false, error: 'no' }),
      pairNanoleaf: () => Promise.resolve({ ok: false, error: 'no' }),
      forgetNanoleaf: () => Promise.resolve(null),
      unlink: () => Promise.resolve(),
      updates: {
        check: () => updater.checkNow(),
        setAuto: (auto) => updater.setAuto(auto),
        installWhenQuiet: () => updater.installWhenQuiet(),
      },
    },
  });
});
afterEach(async () => {
  updater.close();
  await bridge.close();
  manifestServer.closeAllConnections();
  await new Promise((resolve) => manifestServer.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

const post = (route: string, body: unknown, origin?: string) =>
  fetch(`${bridge.url.replace(/\/$/, '')}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify(body),
  });

describe("the status page's updates", () => {
  test('Check now from the status page shows the newest version and its notes, cleaned, as text', async () => {
    const checked = await post('/api/updates/check', {}, bridge.url.replace(/\/$/, ''));
    expect(checked.status).toBe(200);
    const status = (await (await fetch(`${bridge.url}api/status`)).json()) as { updates: { notes: string } };
    expect(status.updates).toMatchObject({ running: '0.2.0', newest: '0.3.0', auto: true, enabled: true });
    // One line, no bidi override or control: cleaned like every outside text the page shows.
    expect(status.updates.notes).toBe('Fixes. gnitirW <img src=x onerror=alert(1)>');
    const page = renderStatusPage(status);
    const card = page('updates');
    expect(card.textContent).toContain('Running version 0.2.0 · newest version 0.3.0');
    expect(card.textContent).toContain('Release notes: Fixes. gnitirW <img src=x onerror=alert(1)>');
    // The notes are a text node inside <bdi>, never parsed as HTML.
    expect(card.descendants().some((e) => e.tagName === 'IMG')).toBe(false);
    expect(page('update-auto').checked).toBe(true);
    expect(page('updates-card').hidden).toBe(false);
  });

  test('the automatic switch is kept in the state file; a web page may not change it', async () => {
    const fromApp = await post('/api/updates/auto', { auto: false }, 'http://localhost:3000');
    expect(fromApp.status).toBe(403);
    expect(await fromApp.json()).toEqual({
      error: "Manage updates on the companion's status page.",
      code: 'forbidden',
    });
    const fromPage = await post('/api/updates/auto', { auto: false }, bridge.url.replace(/\/$/, ''));
    expect(fromPage.status).toBe(200);
    const saved = JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as { updates: unknown };
    expect(saved.updates).toEqual({ auto: false, failed: [] });
    expect(updater.view().auto).toBe(false);
    expect((await post('/api/updates/auto', { auto: 'no' })).status).toBe(400);
    const install = await post('/api/updates/install', {});
    expect(install.status).toBe(409);
  });

  test('with updates off the card says so and its buttons are disabled', () => {
    const page = renderStatusPage({
      version: '0.2.0',
      platform: 'linux',
      linked: true,
      updates: {
        enabled: false,
        running: '0.2.0',
        state: 'off',
        auto: true,
        message: 'Updates are turned off (--no-update).',
      },
    });
    expect(page('updates').textContent).toContain('Updates are turned off (--no-update).');
    expect(page('update-check').disabled).toBe(true);
    expect(page('update-auto').checked).toBe(false);
  });

  test('a status without updates shows no card', () => {
    const page = renderStatusPage({ version: '0.2.0', platform: 'linux', linked: true });
    expect(page('updates-card').hidden).toBe(true);
  });
});

describe('a version picked by hand on the status page', () => {
  /** The page's script with a fetch that records each request and answers install-version as `answer`. */
  function pageWith(answer: { status: number; body: unknown }) {
    const byId = new Map<string, FakeElement>();
    const getElementById = (id: string) => {
      let element = byId.get(id);
      if (!element) byId.set(id, (element = new FakeElement('div')));
      return element;
    };
    const sent: { path: string; body: unknown }[] = [];
    const context = vm.createContext({
      document: { getElementById, createElement: (tag: string) => new FakeElement(tag.toUpperCase()) },
      fetch: (requested: string, init?: { body?: string }) => {
        if (requested === '/api/status') return new Promise(() => undefined);
        sent.push({ path: requested, body: JSON.parse(init?.body ?? '{}') });
        return Promise.resolve({ ok: answer.status === 200, json: () => Promise.resolve(answer.body) });
      },
      setInterval: () => 0,
    });
    vm.runInContext(STATUS_PAGE_SCRIPT, context);
    const page = context as unknown as Record<string, (...args: unknown[]) => unknown>;
    page.render!({
      version: '0.2.0',
      platform: 'linux',
      linked: true,
      updates: {
        enabled: true,
        running: '0.2.0',
        state: 'idle',
        auto: true,
        channel: 'beta',
        offered: [
          { version: '0.3.0', channel: 'beta', released: '2026-11-20T10:00:00.000Z', older: false },
          { version: '0.1.9', channel: 'stable', released: '2026-10-01T10:00:00.000Z', older: true },
        ],
      },
    });
    return { $: getElementById, sent, page };
  }
  const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
  const installButtons = ($: (id: string) => FakeElement) =>
    $('update-offered')
      .descendants()
      .filter((e) => e.tagName === 'BUTTON');

  test('lists the versions and the channel; an older one asks first and sends nothing yet', async () => {
    const { $, sent } = pageWith({ status: 200, body: { success: true, message: 'ok' } });
    expect($('update-channel').value).toBe('beta');
    expect($('update-offered').textContent).toContain('Version 0.3.0 (beta), released 2026-11-20');
    expect($('update-offered').textContent).toContain(
      'Version 0.1.9, released 2026-10-01, older than this one',
    );
    const older = installButtons($).find((b) => b.textContent === 'Install 0.1.9')!;
    (older.onclick as () => void)();
    await settle();
    expect($('update-confirm').hidden).toBe(false);
    expect($('update-confirm-text').textContent).toBe('Install version 0.1.9, older than the running 0.2.0?');
    expect(sent).toEqual([]);
  });

  test('Cancel sends nothing; Install in the question sends the confirmation for that version; a newer one needs none', async () => {
    const { $, sent, page } = pageWith({
      status: 200,
      body: { success: true, message: 'Version 0.1.9 is downloaded and checked.' },
    });
    page.pickVersion!('0.1.9');
    page.cancelPick!();
    await settle();
    expect($('update-confirm').hidden).toBe(true);
    expect(sent).toEqual([]);
    page.pickVersion!('0.1.9');
    page.confirmPick!();
    await settle();
    expect(sent).toEqual([
      { path: '/api/updates/install-version', body: { version: '0.1.9', confirmOlder: true } },
    ]);
    expect($('update-result').textContent).toBe('Version 0.1.9 is downloaded and checked.');
    page.pickVersion!('0.3.0');
    await settle();
    expect(sent[1]).toEqual({
      path: '/api/updates/install-version',
      body: { version: '0.3.0', confirmOlder: false },
    });
  });

  test('a refusal for want of the confirmation (a list gone stale) asks the question', async () => {
    const { $, page } = pageWith({
      status: 409,
      body: { error: 'Update refused: …', confirm: { version: '0.3.0', running: '0.4.0' } },
    });
    page.pickVersion!('0.3.0');
    await settle();
    expect($('update-confirm').hidden).toBe(false);
    expect($('update-confirm-text').textContent).toBe('Install version 0.3.0, older than the running 0.4.0?');
  });
});
