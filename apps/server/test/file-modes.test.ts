import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterEach, describe, expect, test } from 'vitest';
import { ensureDemoAdmin } from '../src/auth/demo-admin.js';
import { createMailer } from '../src/mail/mailer.js';
import { buildTestApp, type TestApp } from './helper.js';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe.skipIf(process.platform === 'win32')('data files are readable by the server user only', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0)) await step();
  });

  function tempRoot() {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-modes-'));
    cleanup.push(() => fs.rmSync(root, { recursive: true, force: true }));
    return root;
  }

  async function start(dataDir: string): Promise<TestApp> {
    const t = await buildTestApp({ env: { DATA_DIR: dataDir } });
    cleanup.unshift(() => t.close());
    return t;
  }

  async function writeSomething(t: TestApp) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/auth/signup',
      payload: {
        email: 'modes@example.com',
        password: 'Sunday!Race1',
        turnstileToken: t.context.sims!.turnstile.control.issueToken(),
      },
    });
    expect(res.statusCode).toBe(201);
  }

  test('a new data folder is 0700; the database, its WAL and shared memory, the app secret and the demo admin are 0600', async () => {
    const dataDir = path.join(tempRoot(), 'data');
    const t = await start(dataDir);
    await writeSomething(t);
    await ensureDemoAdmin(t.context);
    expect(modeOf(dataDir)).toBe(0o700);
    for (const name of [
      'flaglight.db',
      'flaglight.db-wal',
      'flaglight.db-shm',
      'app-secret',
      'demo-admin.json',
    ]) {
      expect([name, modeOf(path.join(dataDir, name))]).toEqual([name, 0o600]);
    }
  });

  test('a data folder and database left open by an older version are closed at start', async () => {
    const dataDir = path.join(tempRoot(), 'data');
    fs.mkdirSync(dataDir, { mode: 0o755 });
    fs.chmodSync(dataDir, 0o755);
    for (const name of ['flaglight.db', 'flaglight.db-wal', 'flaglight.db-shm']) {
      fs.writeFileSync(path.join(dataDir, name), '');
      fs.chmodSync(path.join(dataDir, name), 0o644);
    }
    const t = await start(dataDir);
    await writeSomething(t);
    expect(modeOf(dataDir)).toBe(0o700);
    for (const name of ['flaglight.db', 'flaglight.db-wal', 'flaglight.db-shm']) {
      expect([name, modeOf(path.join(dataDir, name))]).toEqual([name, 0o600]);
    }
  });

  test('e-mails written to the outbox (reset links inside) are 0600 in a 0700 folder', async () => {
    const outboxDir = path.join(tempRoot(), 'data', 'outbox');
    const mailer = createMailer({
      smtpUrl: undefined,
      from: 'Flaglight <no-reply@flaglight.app>',
      outboxDir,
      logger: pino({ level: 'silent' }),
    });
    await mailer.send({ to: 'fan@example.com', subject: 'Reset', text: 'token=abc', html: '<p>abc</p>' });
    const [file] = fs.readdirSync(outboxDir);
    expect(modeOf(outboxDir)).toBe(0o700);
    expect(modeOf(path.join(outboxDir, file!))).toBe(0o600);
    expect(modeOf(path.dirname(outboxDir))).toBe(0o700);
  });
});
