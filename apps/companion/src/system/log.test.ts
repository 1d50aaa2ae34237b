import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { createLogger, LOG_MESSAGE_MAX } from './log.js';

// What a device on the LAN can name itself: a line break with a forged line after it, a bidi
// override, a terminal title and a screen clear, NUL, DEL, a C1 control and the line separator.
const FORGED = '\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com';
const HOSTILE = `Desk\nlamp \u202eevil${FORGED}\u001b]0;title\u0007\u001b[2J\u0000\u007f\u009b\u2028end`;
const ESCAPED =
  'Desk\\nlamp \\u{202e}evil\\n2026-11-29T10:00:00.000Z INFO Linked as evil@example.com' +
  '\\u{1b}]0;title\\u{7}\\u{1b}[2J\\u{0}\\u{7f}\\u{9b}\\u{2028}end';
const UNSAFE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;
const LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (INFO|WARN|ERROR) /;

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'flaglight-log-'));
});
afterEach(() => {
  vi.restoreAllMocks();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The log file's lines, each without its one newline. */
const fileLines = (file: string) => fs.readFileSync(file, 'utf8').split('\n').slice(0, -1);

describe('the companion log', () => {
  test('a name with a line break, a bidi override, terminal escapes and NUL is one escaped line in the file and the recent entries', () => {
    const file = path.join(dir, 'companion.log');
    const log = createLogger({ console: false, file });
    log.info(`Nanoleaf: paired with ${HOSTILE} (NL42)`);
    log.warn(`Hue: ${HOSTILE}`);
    log.error(`Flag red: ${HOSTILE}`);

    const lines = fileLines(file);
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).toMatch(LINE);
      expect(line).not.toMatch(UNSAFE);
    }
    expect(lines[0]).toMatch(new RegExp(`INFO Nanoleaf: paired with ${escapeRegExp(ESCAPED)} \\(NL42\\)$`));
    expect(log.recent().map((e) => [e.level, e.message])).toEqual([
      ['info', `Nanoleaf: paired with ${ESCAPED} (NL42)`],
      ['warn', `Hue: ${ESCAPED}`],
      ['error', `Flag red: ${ESCAPED}`],
    ]);
  });

  test('the console gets the same escaped line: no escape sequence, BEL or NUL reaches the terminal', () => {
    const out = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const err = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const log = createLogger({ console: true });
    log.info(`WLED "${HOSTILE}" answers again`);
    log.warn(HOSTILE);
    log.error(HOSTILE);

    expect(out.mock.calls).toEqual([[`WLED "${ESCAPED}" answers again`]]);
    expect(err.mock.calls).toEqual([[`Warning: ${ESCAPED}`], [`Error: ${ESCAPED}`]]);
    for (const [line] of [...out.mock.calls, ...err.mock.calls]) expect(line).not.toMatch(UNSAFE);
  });

  test('printable messages are written as they are, and tokens are still cut', () => {
    const file = path.join(dir, 'companion.log');
    const log = createLogger({ console: false, file });
    log.info('Broadcast delay: 2.5 s · Shapes Den (NL42) 灯 😀');
    log.info(`Linked with fl_${'a'.repeat(30)} and ${'B'.repeat(44)}`);
    expect(log.recent().map((e) => e.message)).toEqual([
      'Broadcast delay: 2.5 s · Shapes Den (NL42) 灯 😀',
      'Linked with fl_a… and BBBB…',
    ]);
    expect(fileLines(file)[1]).toMatch(/INFO Linked with fl_a… and BBBB…$/);
  });

  test(`a message longer than ${LOG_MESSAGE_MAX} characters is cut there, never inside an emoji`, () => {
    const file = path.join(dir, 'companion.log');
    const log = createLogger({ console: false, file });
    // Words, not one long run: a run of 40 letters would be cut as a token first.
    const words = 'x '.repeat((LOG_MESSAGE_MAX - 2) / 2);
    log.info(`${words}😀 and a megabyte more ${'y '.repeat(500_000)}`);
    const [entry] = log.recent();
    expect(entry!.message.length).toBe(LOG_MESSAGE_MAX - 1);
    expect(entry!.message === `${words}…`).toBe(true);
    const [line] = fileLines(file);
    expect(line).toMatch(LINE);
    expect(line).not.toMatch(/\p{Cs}/u);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
