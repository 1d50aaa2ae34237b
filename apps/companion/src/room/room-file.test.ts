import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { readRoomSnapshot, removeRoomSnapshot, ROOM_SNAPSHOT_FILE, writeRoomSnapshot } from './room-file.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-room-'));
  dirs.push(dir);
  return dir;
};

test('a snapshot written is read back whole by a later run, with no temporary file left', () => {
  const dir = tempDir();
  const snapshot = {
    sessionKey: 9158,
    takenAt: '2026-12-01T18:00:00.000Z',
    lights: {
      'lifx_lan:d073d51a0002': {
        readable: true as const,
        on: false,
        state: { hue: 43690, saturation: 65535, brightness: 52428, kelvin: 3500, power: 0 },
      },
      'wled:a0b765d00001': { readable: true as const, on: true, state: { on: true, bri: 90, ps: 1 } },
      'govee_lan:x': { readable: false as const, reason: 'This light cannot be read' },
    },
  };
  writeRoomSnapshot(dir, snapshot);
  expect(readRoomSnapshot(dir)).toEqual(snapshot);
  expect(fs.readdirSync(dir)).toEqual([ROOM_SNAPSHOT_FILE]);
  removeRoomSnapshot(dir);
  expect(readRoomSnapshot(dir)).toBeNull();
});

test('a snapshot that is not one this companion wrote is set aside, not used', () => {
  const dir = tempDir();
  fs.writeFileSync(path.join(dir, ROOM_SNAPSHOT_FILE), '{"sessionKey":"x"');
  expect(readRoomSnapshot(dir)).toBeNull();
  expect(fs.existsSync(path.join(dir, `${ROOM_SNAPSHOT_FILE}.bad`))).toBe(true);
  fs.writeFileSync(
    path.join(dir, ROOM_SNAPSHOT_FILE),
    JSON.stringify({ sessionKey: 1, takenAt: 'now', lights: { a: { readable: true, on: 'yes' } } }),
  );
  expect(readRoomSnapshot(dir)).toBeNull();
});
