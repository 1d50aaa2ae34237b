import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** A paired Hue bridge: the application key and the certificate pinned at pairing. */
export const StoredHueBridgeSchema = z.object({
  url: z.string(),
  bridgeId: z.string(),
  applicationKey: z.string(),
  fingerprint256: z.string().optional(),
  name: z.string().optional(),
});
export type StoredHueBridge = z.infer<typeof StoredHueBridgeSchema>;

/** A paired Nanoleaf controller: its address and the token the power-button pairing gave. */
export const StoredNanoleafSchema = z.object({
  host: z.string(),
  port: z.number().int().min(1).max(65_535),
  token: z.string(),
  /** Lower-case serial number: the light's id. */
  id: z.string(),
  name: z.string().optional(),
  model: z.string().optional(),
  /** The mDNS record's TXT `id` at pairing: a record found later must show it before the token moves. */
  mdnsId: z.string().optional(),
});
export type StoredNanoleaf = z.infer<typeof StoredNanoleafSchema>;

/** What the companion keeps between runs, in `state.json` of its data folder (mode 0600). */
export const CompanionStateSchema = z.object({
  /** The server this link belongs to: a token is never sent to another server. */
  server: z.string().optional(),
  token: z.string().optional(),
  device: z.object({ id: z.string(), name: z.string() }).optional(),
  hueBridges: z.array(StoredHueBridgeSchema).default([]),
  nanoleafDevices: z.array(StoredNanoleafSchema).default([]),
  /** A Home Assistant long-lived access token entered on the status page, for that address only. */
  homeAssistant: z.object({ url: z.string(), token: z.string() }).optional(),
  paused: z.boolean().default(false),
  /** The account's last preferences document: the delay still applies while the server is away. */
  preferences: z.unknown().optional(),
  /** When this companion last followed a live session (ISO): the F1 live-timing fallback's condition. */
  lastLiveAt: z.string().optional(),
  /** MQTT: the random suffix of this companion's client id and topics, and whether the name-only
   * topics of versions before it were cleared (decision 035). */
  mqtt: z.object({ suffix: z.string(), legacyCleared: z.boolean().default(true) }).optional(),
  /** Updates (decision 045): the status page's switch, versions rolled back (never installed again
   * by themselves), and the last outcome worth showing after a restart. */
  updates: z
    .object({
      auto: z.boolean().default(true),
      failed: z.array(z.string()).default([]),
      /** Versions the fan stepped back from by hand (for an older one): not installed again by themselves. */
      declined: z.array(z.string()).optional(),
      /** The channel followed: stable (default) or beta. */
      channel: z.enum(['stable', 'beta']).optional(),
      note: z.string().optional(),
      /** Written before the new version starts; that version takes it as its own at start. */
      pending: z
        .object({
          version: z.string(),
          from: z.string(),
          /** When the handover started it (ISO). */
          at: z.string(),
          /** Starts by anything but the handover since: each follows an exit. */
          restarts: z.number().int().min(0).default(0),
        })
        .optional(),
    })
    .optional(),
});
export type CompanionState = z.infer<typeof CompanionStateSchema>;

const EMPTY: CompanionState = { hueBridges: [], nanoleafDevices: [], paused: false };

/**
 * The state file. Writes go to a temporary file that is renamed over the old one, so a crash or a
 * power cut mid-write leaves the previous state, never half a file. A file that cannot be read (hand
 * edited, from a future version) is kept aside as `state.json.bad` and the companion starts unlinked.
 */
export class StateFile {
  readonly file: string;
  private state: CompanionState = EMPTY;

  constructor(readonly dir: string) {
    this.file = path.join(dir, 'state.json');
  }

  load(): { state: CompanionState; warning?: string } {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    tighten(this.dir, 0o700);
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch {
      this.state = EMPTY;
      return { state: this.state };
    }
    tighten(this.file, 0o600);
    try {
      this.state = CompanionStateSchema.parse(JSON.parse(text));
      return { state: this.state };
    } catch {
      fs.renameSync(this.file, `${this.file}.bad`);
      this.state = EMPTY;
      return {
        state: this.state,
        warning: `Unreadable ${this.file}: kept as state.json.bad, starting unlinked`,
      };
    }
  }

  get(): CompanionState {
    return this.state;
  }

  update(change: (state: CompanionState) => CompanionState): CompanionState {
    const next = CompanionStateSchema.parse(change(this.state));
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
    fs.renameSync(temp, this.file);
    this.state = next;
    return next;
  }
}

function tighten(target: string, mode: number): void {
  if (process.platform === 'win32') return;
  try {
    fs.chmodSync(target, mode);
  } catch {
    // Not ours to change (a shared folder): the files inside are still written 0600.
  }
}
