import fs from 'node:fs';
import path from 'node:path';
import { escapeLogText } from '@flaglight/core';

export type LogLevel = 'info' | 'warn' | 'error';

export interface LogEntry {
  at: string;
  level: LogLevel;
  message: string;
}

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** The last entries, newest last (the status page's "recent log"). */
  recent(): LogEntry[];
}

const KEEP = 100;
const MAX_FILE_BYTES = 1_000_000;
/** The longest message kept (a device may name itself with a megabyte); a stack trace fits. */
export const LOG_MESSAGE_MAX = 4_000;
/** Anything that looks like a token or code is cut before it reaches a screen or a file. */
const SECRET = /\b(fl_[A-Za-z0-9_-]{8,}|[A-Za-z0-9_-]{40,})\b/g;

export function redact(text: string): string {
  return text.replace(SECRET, (match) => `${match.slice(0, 4)}…`);
}

/**
 * A message as every part of the log holds it: secrets cut, then written on one line by the one
 * escaping rule (`escapeLogText`), so a device, an upstream or a server answer quoted in it can
 * neither start a line of its own nor reorder or colour one.
 */
export function formatLogMessage(raw: string): string {
  return escapeLogText(redact(raw), { max: LOG_MESSAGE_MAX });
}

/**
 * The companion's log: a ring of recent entries for the status page, the console when there is
 * one, and `companion.log` in the data folder when running in the background (rotated at 1 MB).
 * Every message goes through `formatLogMessage` first, whoever wrote it.
 */
export function createLogger(options: { console: boolean; file?: string; now?: () => Date }): Logger {
  const entries: LogEntry[] = [];
  const now = options.now ?? (() => new Date());
  let written = 0;
  if (options.file) {
    try {
      written = fs.statSync(options.file).size;
    } catch {
      written = 0;
    }
  }

  const write = (level: LogLevel, raw: string) => {
    const message = formatLogMessage(raw);
    const entry = { at: now().toISOString(), level, message };
    entries.push(entry);
    if (entries.length > KEEP) entries.shift();
    if (options.console) {
      const line = level === 'info' ? message : `${level === 'warn' ? 'Warning' : 'Error'}: ${message}`;
      (level === 'info' ? console.log : console.error)(line);
    }
    if (options.file) {
      const line = `${entry.at} ${level.toUpperCase()} ${message}\n`;
      try {
        if (written + line.length > MAX_FILE_BYTES) {
          fs.renameSync(options.file, `${options.file}.1`);
          written = 0;
        }
        fs.mkdirSync(path.dirname(options.file), { recursive: true, mode: 0o700 });
        fs.appendFileSync(options.file, line, { mode: 0o600 });
        written += line.length;
      } catch {
        // A full disk must not stop the lights.
      }
    }
  };

  return {
    info: (message) => write('info', message),
    warn: (message) => write('warn', message),
    error: (message) => write('error', message),
    recent: () => [...entries],
  };
}
