import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { StateFile } from '../system/state-file.js';
import { noteStart, rollBackAtStart, RESTART_WINDOW_MS } from './restart-guard.js';

let dir: string;
let store: StateFile;
const at = Date.parse('2026-11-29T12:00:00Z');
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-restart-guard-'));
  store = new StateFile(path.join(dir, 'data'));
  store.load();
  // What the handover wrote before it started 0.2.0.
  store.update((s) => ({
    ...s,
    updates: {
      auto: true,
      failed: [],
      pending: { version: '0.2.0', from: '0.1.0', at: new Date(at).toISOString(), restarts: 0 },
    },
  }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("the new version's first five minutes", () => {
  test('started by the handover it notes the update and keeps watching', () => {
    expect(noteStart(store, { running: '0.2.0', byHandover: true, now: at + 1_000 })).toEqual({
      kind: 'run',
    });
    expect(store.get().updates).toMatchObject({
      note: 'Updated from 0.1.0 to 0.2.0.',
      pending: { restarts: 0 },
    });
  });

  test('the third start by something else within five minutes rolls it back', () => {
    noteStart(store, { running: '0.2.0', byHandover: true, now: at + 1_000 });
    expect(noteStart(store, { running: '0.2.0', byHandover: false, now: at + 30_000 })).toEqual({
      kind: 'run',
    });
    expect(noteStart(store, { running: '0.2.0', byHandover: false, now: at + 60_000 })).toEqual({
      kind: 'run',
    });
    const third = noteStart(store, { running: '0.2.0', byHandover: false, now: at + 90_000 });
    expect(third).toEqual({ kind: 'roll-back', version: '0.2.0', from: '0.1.0' });

    const exe = path.join(dir, 'flaglight-companion-linux-x64');
    fs.writeFileSync(exe, 'new');
    fs.writeFileSync(`${exe}.previous`, 'old');
    if (third.kind === 'roll-back') rollBackAtStart(store, exe, third, 'linux');
    expect(fs.readFileSync(exe, 'utf8')).toBe('old');
    expect(store.get().updates).toEqual({
      auto: true,
      failed: ['0.2.0'],
      note: 'Update to 0.2.0 failed and was rolled back.',
    });
  });

  test('after five minutes, or in another version, the record is dropped and starts are not counted', () => {
    expect(
      noteStart(store, { running: '0.2.0', byHandover: false, now: at + RESTART_WINDOW_MS + 1 }),
    ).toEqual({
      kind: 'run',
    });
    expect(store.get().updates?.pending).toBeUndefined();
    store.update((s) => ({
      ...s,
      updates: {
        auto: true,
        failed: [],
        pending: { version: '0.2.0', from: '0.1.0', at: new Date(at).toISOString(), restarts: 2 },
      },
    }));
    expect(noteStart(store, { running: '0.1.0', byHandover: false, now: at + 1_000 })).toEqual({
      kind: 'run',
    });
    expect(store.get().updates?.pending).toBeUndefined();
  });
});
