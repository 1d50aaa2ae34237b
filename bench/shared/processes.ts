/**
 * What a bench starts and must take down again, whatever way it ends: child processes (each in its
 * own process group, spawned `detached`, so a kill reaches everything it started), servers and
 * sockets of this process, and temporary folders.
 */
import { type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sleep } from './time.js';

/** The tail of the children's output kept for a set-up failure's report. */
const OUTPUT_CHARS = 6_000;

const children = new Set<ChildProcess>();
const closers: (() => Promise<void> | void)[] = [];
const tmpDirs: string[] = [];
let output = '';

export function track(child: ChildProcess, label: string, keepOutput = true): ChildProcess {
  children.add(child);
  child.on('exit', () => children.delete(child));
  const keep = (chunk: Buffer) => {
    if (!keepOutput) return;
    output = (output + chunk.toString()).slice(-OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  child.on('error', (error) => (output += `\n${label}: ${error.message}`));
  return child;
}

/** The last output of the tracked children (those that keep it), and their spawn errors. */
export const lastOutput = () => output;

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** The child's whole process group: SIGTERM, then SIGKILL after 3 s; waits for its exit. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  signalGroup(child, 'SIGTERM');
  await Promise.race([exited, sleep(3_000)]);
  signalGroup(child, 'SIGKILL');
  await Promise.race([exited, sleep(1_000)]);
}

/** Runs at clean-up, latest first, before the children are stopped. */
export function onCleanUp(close: () => Promise<void> | void): void {
  closers.push(close);
}

/** A fresh folder under the OS's temp folder (`flaglight-bench-<name>-…`), removed at clean-up. */
export function tempDir(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `flaglight-bench-${name}-`));
  tmpDirs.push(dir);
  return dir;
}

export async function cleanUp(): Promise<void> {
  for (const close of closers.splice(0).reverse())
    await Promise.resolve()
      .then(close)
      .catch(() => undefined);
  await Promise.all([...children].map(stop));
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
}
