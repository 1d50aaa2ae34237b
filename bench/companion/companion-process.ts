/** The companion under measurement: how it is launched, started and asked for its status. */
import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { SetupError } from '../shared/errors.js';
import { freePort } from '../shared/ports.js';
import { tempDir, track } from '../shared/processes.js';
import { REPO_ROOT } from '../shared/repo.js';
import { waitFor } from '../shared/wait-for.js';
import { COMPANION_SOURCES, EXECUTABLE } from './config.js';

export interface CompanionStatus {
  linked: boolean;
  userCode?: string;
  stream: { state: string };
  session: { sessionKey: number } | null;
  delayMs: number;
  lights: { provider: string; reachable: boolean; driven: boolean }[];
}

export async function companionStatus(port: number): Promise<CompanionStatus> {
  const response = await fetch(`http://127.0.0.1:${port}/api/status`);
  if (!response.ok) throw new Error(`status ${response.status}`);
  return (await response.json()) as CompanionStatus;
}

export interface Launch {
  kind: 'executable' | 'sources';
  command: string;
  args: string[];
}

/** The built executable when there is one (`main`), else the sources under tsx; the sources either way. */
export function launchers(): { main: Launch; sources: Launch } {
  const sources: Launch = {
    kind: 'sources',
    command: process.execPath,
    args: ['--import', 'tsx', COMPANION_SOURCES],
  };
  if (!existsSync(EXECUTABLE)) return { main: sources, sources };
  // A copy, so a rebuild by someone else during the run neither fails on a busy file nor changes it.
  const copy = path.join(tempDir('bin'), path.basename(EXECUTABLE));
  copyFileSync(EXECUTABLE, copy);
  chmodSync(copy, 0o755);
  return { main: { kind: 'executable', command: copy, args: [] }, sources };
}

export interface StartedCompanion {
  child: ChildProcess;
  port: number;
  startupMs: number;
}

/** Spawns a companion and times spawn → the first 200 from its /api/status. */
export async function startCompanion(
  launch: Launch,
  base: string,
  keepOutput: boolean,
): Promise<StartedCompanion> {
  const port = await freePort();
  const dataDir = tempDir('companion');
  const started = performance.now();
  const child = track(
    spawn(
      launch.command,
      [
        ...launch.args,
        'run',
        '--demo',
        '--server',
        base,
        '--no-browser',
        '--data-dir',
        dataDir,
        '--port',
        String(port),
        '--name',
        'Bench Companion',
      ],
      { cwd: REPO_ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'] },
    ),
    'companion',
    keepOutput,
  );
  await waitFor(
    `the companion's status page (${launch.kind})`,
    async () => {
      if (child.exitCode !== null) throw new SetupError(`the companion exited with ${child.exitCode}`);
      return (await fetch(`http://127.0.0.1:${port}/api/status`)).status === 200;
    },
    30_000,
    10,
  );
  return { child, port, startupMs: performance.now() - started };
}
