import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findFreeTcpPort } from '@flaglight/sims';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { signManifest } from '../src/update/manifest.js';
import {
  call,
  setDemoRace,
  setDemoRaceSpeed,
  signUp,
  startDemoServer,
  until,
  type DemoServer,
} from './demo-server.js';

// The packaged companion updates itself (decision 045): version N (dist/, as `npm run package`
// left it) runs from a folder of its own against a demo server whose downloads are version N+1,
// built here by the same script with `--version` and signed with the same throw-away key.
const COMPANION_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXE = path.join(COMPANION_DIR, 'dist', 'flaglight-companion-linux-x64');
const pkg = JSON.parse(fs.readFileSync(path.join(COMPANION_DIR, 'package.json'), 'utf8')) as {
  version: string;
  flaglight: { node: string };
};
const VERSION = pkg.version;
const [major, minor, patch] = VERSION.split('.').map(Number) as [number, number, number];
const NEXT = `${major}.${minor}.${patch + 1}`;
const BROKEN = `${major}.${minor}.${patch + 2}`;
const THROWAWAY_KEY = path.join(COMPANION_DIR, '.cache', 'throwaway-update-key.pem');
const BARE_NODE = path.join(COMPANION_DIR, '.cache', `node-${pkg.flaglight.node}`, 'node');
const FIXTURE = '2021-saudi-arabia-race';
const built = fs.existsSync(EXE) && fs.existsSync(THROWAWAY_KEY) && process.platform === 'linux';
if (!built)
  console.warn('update.package.test.ts: SKIPPED, the Linux executable is not built (npm run package:linux)');

interface Status {
  version: string;
  linked: boolean;
  paused: boolean;
  userCode?: string;
  device: { name: string } | null;
  stream: { state: string };
  updates: { state: string; message: string | null; notice: string | null; newest: string | null };
}

async function statusOn(port: number): Promise<Status | null> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/status`, {
      signal: AbortSignal.timeout(1_500),
    });
    return response.ok ? ((await response.json()) as Status) : null;
  } catch {
    return null;
  }
}

const post = (port: number, route: string, body: unknown) =>
  fetch(`http://127.0.0.1:${port}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The processes running `exe` (the update starts the new version as a process of its own). */
function processesOf(exe: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '') === exe;
      } catch {
        return false;
      }
    })
    .map(Number);
}

const sha = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

interface Installed {
  exe: string;
  dataDir: string;
  port: number;
  child: ChildProcess;
  exited: Promise<number | null>;
  output: () => string;
}

/** Version N copied into a folder of its own (the update replaces that copy) and started there. */
async function installAndStart(
  root: string,
  server: string,
  name: string,
  extra: { args?: string[]; state?: Record<string, unknown> } = {},
): Promise<Installed> {
  const folder = fs.mkdtempSync(path.join(root, 'install-'));
  const exe = path.join(folder, 'flaglight-companion-linux-x64');
  fs.copyFileSync(EXE, exe);
  fs.chmodSync(exe, 0o755);
  const dataDir = path.join(folder, 'data');
  if (extra.state) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    fs.writeFileSync(path.join(dataDir, 'state.json'), JSON.stringify(extra.state), { mode: 0o600 });
  }
  const port = await findFreeTcpPort();
  const child = spawn(
    exe,
    [
      'run',
      '--demo',
      '--server',
      server,
      '--port',
      String(port),
      '--no-browser',
      '--data-dir',
      dataDir,
      '--name',
      name,
      ...(extra.args ?? []),
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { exe, dataDir, port, child, exited, output: () => output };
}

/** What the server offers: a manifest and the Linux file it names, newest and kept by version. */
function publish(downloads: string, manifest: string, file: string, version: string) {
  for (const name of fs.readdirSync(downloads)) fs.rmSync(path.join(downloads, name), { recursive: true });
  fs.copyFileSync(manifest, path.join(downloads, 'manifest.json'));
  fs.linkSync(file, path.join(downloads, 'flaglight-companion-linux-x64'));
  fs.mkdirSync(path.join(downloads, 'releases', version), { recursive: true });
  fs.linkSync(file, path.join(downloads, 'releases', version, 'flaglight-companion-linux-x64'));
}

/** What the fan set up that the handover must keep, as the state file and the snapshot hold it. */
function kept(dataDir: string) {
  const state = JSON.parse(fs.readFileSync(path.join(dataDir, 'state.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const { token, device, server: linkedTo, hueBridges, nanoleafDevices, homeAssistant, mqtt } = state;
  return {
    link: { token, device, linkedTo },
    lights: { hueBridges, nanoleafDevices, homeAssistant, mqtt },
    paused: state.paused,
    snapshot: fs.readFileSync(path.join(dataDir, 'room-snapshot.json'), 'utf8'),
  };
}

/** Version N with paired lights and an MQTT broker set up, linked and following the demo race. */
async function startLinkedAndFollowing(
  at: { root: string; server: string; session: string },
  mqttUrl: string,
): Promise<Installed> {
  // Paired lights and an MQTT broker (none answers: only what is kept matters here).
  const n = await installAndStart(at.root, at.server, 'Update journey', {
    args: ['--mqtt', mqttUrl],
    state: {
      hueBridges: [
        { url: 'https://127.0.0.1:9', bridgeId: 'journeybridge', applicationKey: 'journey-hue-key' },
      ],
      nanoleafDevices: [
        { host: '127.0.0.1', port: 9, token: 'journey-nanoleaf-token', id: 'journey-nanoleaf' },
      ],
      homeAssistant: { url: 'http://127.0.0.1:9', token: 'journey-ha-token' },
    },
  });
  const code = await until(async () => (await statusOn(n.port))?.userCode, 'the link code');
  await call(at.server, 'POST', '/api/device/approve', { code }, at.session);
  await until(
    async () => {
      const s = await statusOn(n.port);
      return s?.linked && s.stream.state === 'following';
    },
    'the companion to follow the demo race',
    { ms: 60_000 },
  );
  return n;
}

/** Whether any bulb of the demo server's LAN simulator shows a lit yellow (any brightness). */
async function someBulbIsYellow(serverUrl: string): Promise<boolean> {
  const body = (await call(serverUrl, 'GET', '/sims/lan/_control/bulbs')) as { bulbs: { hex: string }[] };
  return body.bulbs.some(({ hex }) => {
    const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as [
      number,
      number,
      number,
    ];
    return r > 0x40 && g > 0x40 && Math.abs(r - g) < 0x30 && b < r / 3;
  });
}

describe.skipIf(!built)('the packaged companion updates itself', () => {
  let root: string;
  let downloads: string;
  let nextDir: string;
  let server: DemoServer;
  const started: Installed[] = [];

  beforeAll(async () => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-update-journey-'));
    nextDir = path.join(root, 'next');
    downloads = path.join(root, 'downloads');
    fs.mkdirSync(downloads);
    const notes = path.join(root, 'notes.txt');
    fs.writeFileSync(notes, `Flaglight Companion ${NEXT}: the update journey's build.`);
    // N+1 is built while the demo server starts: the two take most of this setup.
    const t0 = performance.now();
    const building = new Promise<{ code: number | null; output: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        ['scripts/package.mjs', '--linux-only', '--version', NEXT, '--out-dir', nextDir, '--notes', notes],
        { cwd: COMPANION_DIR, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.once('exit', (code) => resolve({ code, output }));
    });
    server = await startDemoServer({ env: { DOWNLOADS_DIR: downloads } });
    const build = await building;
    expect(build.code, build.output).toBe(0);
    console.log(`update journey: version ${NEXT} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }, paced(120_000));

  afterAll(async () => {
    for (const one of started) {
      for (const pid of processesOf(one.exe)) process.kill(pid, 'SIGKILL');
      one.child.kill('SIGKILL');
    }
    await server?.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }, paced(30_000));

  test(
    `${VERSION} installs ${NEXT} while the lights are paused, comes back on the same port, linked and following, with nothing lost, and its lights follow`,
    { timeout: paced(240_000) },
    async () => {
      for (const name of fs.readdirSync(downloads))
        fs.rmSync(path.join(downloads, name), { recursive: true });
      const session = await signUp(server.url);
      // The demo race held just before a yellow flag (green now, yellow 9 s into the race at speed 1):
      // the same session is followed before and after the update, and goes on once the update is done.
      await setDemoRace(server.url, FIXTURE, 203.9, 1);
      await setDemoRaceSpeed(server.url, 0);
      // Where the journey's time goes, printed at its end (CI time matters: docs/packaging.md).
      const begun = Date.now();
      const phases: string[] = [];
      const mark = (phase: string) => phases.push(`${phase} ${((Date.now() - begun) / 1000).toFixed(1)} s`);
      const mqttUrl = `mqtt://127.0.0.1:${await findFreeTcpPort()}`;
      const n = await startLinkedAndFollowing({ root, server: server.url, session }, mqttUrl);
      started.push(n);
      // The release is published while the companion follows; "Check now" finds it. It is downloaded
      // and checked, and waits: a followed session is never interrupted.
      publish(
        downloads,
        path.join(nextDir, 'manifest.json'),
        path.join(nextDir, 'flaglight-companion-linux-x64'),
        NEXT,
      );
      // The session's "as it was" snapshot, written as the followed session began.
      await until(() => fs.existsSync(path.join(n.dataDir, 'room-snapshot.json')), 'the room snapshot');
      mark('following');
      expect((await post(n.port, '/api/updates/check', {})).status).toBe(200);
      let last: Status | null = null;
      const ready = await until(
        async () => {
          last = await statusOn(n.port);
          return last?.updates.state === 'ready' ? last : null;
        },
        `${NEXT} to be downloaded while following`,
        { ms: 60_000 },
      ).catch((error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(last?.updates)}\n${n.output().slice(-2_000)}`);
      });
      expect(ready).toMatchObject({ version: VERSION, updates: { newest: NEXT } });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await statusOn(n.port))?.version).toBe(VERSION);

      // Paused lights are a quiet moment: the update installs.
      mark('downloaded');
      const t0 = Date.now();
      expect((await post(n.port, '/api/pause', { paused: true })).status).toBe(200);
      const before = { ...kept(n.dataDir), paused: true };
      expect(before.lights.hueBridges).toContainEqual(
        expect.objectContaining({ applicationKey: 'journey-hue-key' }),
      );
      expect(before.lights.nanoleafDevices).toContainEqual(
        expect.objectContaining({ token: 'journey-nanoleaf-token' }),
      );
      expect(before.link.token).toBeTruthy();
      const after = await until(
        async () => {
          const s = await statusOn(n.port);
          return s?.version === NEXT ? s : null;
        },
        `${NEXT} to answer on port ${n.port}`,
        { ms: 60_000, everyMs: 250 },
      );
      console.log(
        `update journey: ${NEXT} answered ${((Date.now() - t0) / 1000).toFixed(1)} s after the pause`,
      );
      expect(await n.exited, n.output()).toBe(0);
      expect(after).toMatchObject({ linked: true, paused: true, device: { name: 'Update journey' } });
      expect(sha(n.exe)).toBe(sha(path.join(nextDir, 'flaglight-companion-linux-x64')));
      expect(sha(`${n.exe}.previous`)).toBe(sha(EXE));
      expect(processesOf(n.exe)).toHaveLength(1);
      // Nothing lost: the link, paired lights' keys, the HA token, MQTT (its id in the state file, its
      // broker in the arguments the new version was started with), pause, and the room's snapshot.
      expect(kept(n.dataDir)).toEqual(before);
      const [pid] = processesOf(n.exe);
      expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(mqttUrl);
      await until(
        async () => (await statusOn(n.port))?.stream.state === 'following',
        `${NEXT} to follow the race`,
      );
      expect((await statusOn(n.port))?.updates.notice).toBe(`Updated from ${VERSION} to ${NEXT}.`);

      // Resumed, the lights follow the race again: a yellow flag reaches the LAN simulator's bulbs.
      mark(`${NEXT} following`);
      expect((await post(n.port, '/api/pause', { paused: false })).status).toBe(200);
      await setDemoRaceSpeed(server.url, 1);
      await until(() => someBulbIsYellow(server.url), 'a yellow flag on the lights after the update', {
        ms: 60_000,
        everyMs: 250,
      });
      mark('yellow on the lights');
      console.log(`update journey: ${phases.join(', ')}`);
    },
  );

  test(
    `a ${BROKEN} that exits at start is rolled back: ${VERSION} is put back, runs on and says so`,
    { timeout: paced(150_000) },
    async () => {
      // A signed "release" that cannot start: the bare Node binary, which exits at once on the
      // companion's arguments (no program in it). Signed by the same throw-away key.
      const key = crypto.createPrivateKey(fs.readFileSync(THROWAWAY_KEY));
      const size = fs.statSync(BARE_NODE).size;
      const manifest = signManifest(
        {
          product: 'flaglight-companion',
          version: BROKEN,
          channel: 'stable',
          released: new Date().toISOString(),
          expires: new Date(Date.now() + 86_400_000).toISOString(),
          notes: 'A build that exits at start.',
          files: {
            'linux-x64': {
              file: 'flaglight-companion-linux-x64',
              url: 'flaglight-linux',
              size,
              sha256: sha(BARE_NODE),
            },
          },
        },
        key,
      );
      const manifestFile = path.join(root, 'broken-manifest.json');
      fs.writeFileSync(manifestFile, JSON.stringify(manifest));
      publish(downloads, manifestFile, BARE_NODE, BROKEN);

      const n = await installAndStart(root, server.url, 'Rollback');
      started.push(n);
      const t0 = Date.now();
      const rolledBack = await until(
        async () => {
          const s = await statusOn(n.port);
          return s?.updates.notice?.startsWith(`Update to ${BROKEN} failed`) ? s : null;
        },
        'the rollback to be reported',
        { ms: 90_000, everyMs: 250 },
      );
      console.log(`update rollback: reported ${((Date.now() - t0) / 1000).toFixed(1)} s after start`);
      expect(rolledBack.version).toBe(VERSION);
      expect(rolledBack.updates.notice).toBe(`Update to ${BROKEN} failed and was rolled back.`);
      expect(n.child.exitCode).toBeNull();
      expect(sha(n.exe)).toBe(sha(EXE));
      const saved = JSON.parse(fs.readFileSync(path.join(n.dataDir, 'state.json'), 'utf8')) as {
        updates: { failed: string[] };
      };
      expect(saved.updates.failed).toEqual([BROKEN]);
      // The next check names the failed version and leaves it alone.
      await until(
        async () => (await statusOn(n.port))?.updates.message?.startsWith(`Version ${BROKEN} failed before`),
        'the next check to leave the failed version alone',
      );
    },
  );
});
