import { spawn } from 'node:child_process';
import { SetupError } from './errors.js';
import { freePort } from './ports.js';
import { tempDir, track } from './processes.js';
import { REPO_ROOT } from './repo.js';
import { waitFor } from './wait-for.js';

/**
 * The server in demo mode from its sources, on ephemeral ports of 127.0.0.1 (its own, its LAN
 * simulator's LIFX and Hue bridge ports), with a fresh data folder; its base URL once healthy.
 */
export async function startDemoServer(): Promise<string> {
  const [port, lifxPort, huePort] = await Promise.all([freePort(), freePort(), freePort()]);
  const base = `http://127.0.0.1:${port}`;
  const server = track(
    spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: REPO_ROOT,
      detached: true,
      env: {
        ...process.env,
        PORT: String(port),
        FLAGLIGHT_MODE: 'demo',
        DATA_DIR: tempDir('server'),
        LOG_LEVEL: 'warn',
        PUBLIC_URL: base,
        AUTH_RATE_LIMIT_PER_MINUTE: '1000',
        DEMO_LIFX_LAN_PORT: String(lifxPort),
        DEMO_HUE_BRIDGE_PORT: String(huePort),
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    }),
    'server',
  );
  await waitFor(
    'the demo server',
    async () => {
      if (server.exitCode !== null) throw new SetupError(`the server exited with ${server.exitCode}`);
      return (await fetch(`${base}/api/health`)).ok;
    },
    60_000,
    100,
  );
  return base;
}
