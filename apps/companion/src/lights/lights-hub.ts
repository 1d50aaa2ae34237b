import {
  CLOUD_TWIN,
  createLightProgram,
  createTestProgram,
  getSettledLook,
  isEffectFlag,
  type LightColor,
} from '@flaglight/core';
import {
  createEffectPlayer,
  type EffectPlayer,
  type LightDriver,
  type LightDeviceInfo,
} from '@flaglight/lights';
import type { Logger } from '../system/log.js';
import type { LanProvider } from './lan-provider.js';
import { fallbackLightLabel, normalizeLightLabel } from './light-label.js';

export type { LanProvider };

/** A LAN driver as the hub uses it: the shared driver interface plus discovery and shutdown. */
export interface LanDriver extends LightDriver {
  discover(): Promise<LightDeviceInfo[]>;
  close(): Promise<void>;
}

export interface HubLight {
  provider: LanProvider;
  id: string;
  label: string;
  reachable: boolean;
  /** The look last sent to it: a colour name and a CSS colour for the status page. */
  lastColor: { name: string; css: string } | null;
  /** Whether the flags drive it (selected, or everything when nothing is selected). */
  driven: boolean;
}

/** What decides which lights the companion drives: the account's preferences (SPEC §3, on the server). */
export interface Selection {
  /** Per provider: the ids chosen in Light Control; absent = every light this companion finds. */
  selectedLights: Record<string, readonly string[] | undefined>;
  /** 'browser': lights also selected as cloud lights are left to the browser. */
  sharedLightsDriver: 'companion' | 'browser';
}

/** The lights this companion drives of one provider, by the rules above. */
export function drivenIds(
  provider: LanProvider,
  found: readonly { id: string; reachable: boolean }[],
  selection: Selection,
): string[] {
  const chosen = selection.selectedLights[provider];
  // A light that is not answering right now stays driven: its driver sends it the current look
  // again when it answers (a bulb that blinked off the Wi-Fi, a restarted bridge).
  const pool = found.map((light) => light.id).filter((id) => chosen === undefined || chosen.includes(id));
  const twin = CLOUD_TWIN[provider];
  if (selection.sharedLightsDriver !== 'browser' || twin === undefined) return pool;
  const twins = new Set(selection.selectedLights[twin] ?? []);
  return pool.filter((id) => !twins.has(id));
}

/** How often the hub reads each driver's device list (reachability changes without an event). */
const DEVICE_REFRESH_MS = 2_000;
/** The same warning from one driver is logged at most once in this long. */
const REPEAT_WARNING_MS = 60_000;

interface Entry {
  provider: LanProvider;
  key: string;
  driver: LanDriver;
  player: EffectPlayer;
  devices: LightDeviceInfo[];
  unsubscribe: () => void;
  refresher: NodeJS.Timeout;
}

export interface LightsHub {
  /** Adds a driver (a LIFX scan, a paired Hue bridge); `key` names it so it can be replaced. */
  add(provider: LanProvider, key: string, driver: LanDriver): Promise<void>;
  remove(key: string): Promise<void>;
  has(key: string): boolean;
  lights(): HubLight[];
  setSelection(selection: Selection): void;
  setPaused(paused: boolean): void;
  paused(): boolean;
  /** Plays a flag now on every driven light. False for an unknown flag. */
  play(flag: string): boolean;
  /** Plays a test of a flag now, then the lights go back to the flag they showed. False for an unknown flag. */
  playTest(flag: string): boolean;
  /** Plays a flag at its target time (behind the broadcast delay). */
  schedule(flag: string, atEpochMs: number): void;
  /** Drops every flag waiting for its time and every step not yet sent: the lights stay as they are. */
  cancelAll(): void;
  /** Scans every driver again. */
  rescan(): Promise<void>;
  /** Called when the list of lights or their reachability changes. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

/** A CSS colour for a look, for the status page's swatches. */
export function css(color: LightColor, brightness: number): string {
  if (color.off) return '#000000';
  const light = Math.round(50 * Math.max(0.15, Math.min(1, brightness)) + (1 - color.saturation) * 45);
  return `hsl(${Math.round(color.hue)} ${Math.round(color.saturation * 100)}% ${Math.min(95, light)}%)`;
}

/**
 * Every LAN light of the companion behind one face: one effect player per driver (the same player
 * and effect programs as the web app), the selection from the account's preferences, pause, and
 * the last look sent to each light for the status page.
 */
/** The colour a flag settles on (fastest lap: its purple), for the status page. */
export function flagLook(flag: string): { name: string; css: string } | null {
  if (!isEffectFlag(flag)) return null;
  const look = getSettledLook(flag);
  return look ? { name: look.color.name, css: css(look.color, look.brightness) } : null;
}

export function createLightsHub(options: { log: Logger }): LightsHub {
  const { log } = options;
  const entries = new Map<string, Entry>();
  const lastLook = new Map<string, { name: string; css: string }>();
  const listeners = new Set<() => void>();
  let selection: Selection = { selectedLights: {}, sharedLightsDriver: 'companion' };
  let isPaused = false;
  const lastWarning = new Map<string, { message: string; at: number }>();
  const warnOnce = (key: string, message: string) => {
    const last = lastWarning.get(key);
    const now = Date.now();
    if (last && last.message === message && now - last.at < REPEAT_WARNING_MS) return;
    lastWarning.set(key, { message, at: now });
    log.warn(`${key}: ${message}`);
  };
  const changed = () => {
    for (const listener of [...listeners]) listener();
  };

  const idsOf = (entry: Entry) =>
    drivenIds(
      entry.provider,
      entry.devices.map((d) => ({ id: d.id, reachable: d.connected })),
      selection,
    );

  const refresh = async (entry: Entry) => {
    try {
      const before = JSON.stringify(entry.devices.map((d) => [d.id, d.label, d.connected]));
      entry.devices = await entry.driver.discover();
      if (JSON.stringify(entry.devices.map((d) => [d.id, d.label, d.connected])) !== before) changed();
    } catch (error) {
      log.warn(`${entry.key}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };

  return {
    async add(provider, key, driver) {
      await this.remove(key);
      const entry: Entry = {
        provider,
        key,
        driver,
        devices: [],
        unsubscribe: () => undefined,
        refresher: setInterval(() => void refreshDevices(entry), DEVICE_REFRESH_MS),
        player: createEffectPlayer({
          driver,
          devices: () => (isPaused ? [] : idsOf(entry)),
          onWarning: (message) => {
            if (!message.startsWith('No devices selected')) warnOnce(key, message);
          },
          onError: (error) => warnOnce(key, error.message),
          onStep: ({ step }) => {
            const look = {
              name: step.kind === 'strobe' ? `${step.color.name} (flashing)` : step.color.name,
              css: css(step.color, step.brightness),
            };
            for (const id of idsOf(entry)) lastLook.set(`${provider}:${id}`, look);
          },
        }),
      };
      entry.refresher.unref();
      entry.unsubscribe = driver.subscribe((event) => {
        if (event.type === 'error' || event.type === 'disconnect') warnOnce(key, event.error.message);
        else if (event.type === 'warning') warnOnce(key, event.message);
        // Reachability is part of the device list: read it again.
        void refreshDevices(entry);
      });
      entries.set(key, entry);
      await refresh(entry);
      changed();
    },
    async remove(key) {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      clearInterval(entry.refresher);
      entry.unsubscribe();
      entry.player.dispose();
      await entry.driver.close().catch(() => undefined);
      changed();
    },
    has: (key) => entries.has(key),
    lights() {
      return [...entries.values()].flatMap((entry) => {
        const driven = new Set(idsOf(entry));
        return entry.devices.map((device) => ({
          provider: entry.provider,
          id: device.id,
          // A device names itself: cleaned once here for the status page and the server's report.
          label: normalizeLightLabel(device.label, fallbackLightLabel(entry.provider, device.id)),
          reachable: device.connected,
          lastColor: lastLook.get(`${entry.provider}:${device.id}`) ?? null,
          driven: driven.has(device.id),
        }));
      });
    },
    setSelection(next) {
      selection = next;
    },
    setPaused(paused) {
      isPaused = paused;
      if (paused) for (const entry of entries.values()) entry.player.cancelAll();
    },
    paused: () => isPaused,
    play(flag) {
      if (!createLightProgram(flag).ok) return false;
      for (const entry of entries.values()) entry.player.play(flag);
      return true;
    },
    playTest(flag) {
      if (!createTestProgram(flag).ok) return false;
      for (const entry of entries.values()) entry.player.playMomentary(flag);
      return true;
    },
    schedule(flag, atEpochMs) {
      for (const entry of entries.values()) entry.player.schedule(flag, atEpochMs);
    },
    cancelAll() {
      for (const entry of entries.values()) entry.player.cancelAll();
    },
    async rescan() {
      await Promise.all([...entries.values()].map(refresh));
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      for (const key of [...entries.keys()]) await this.remove(key);
      listeners.clear();
    },
  };

  async function refreshDevices(entry: Entry) {
    try {
      const before = JSON.stringify(entry.devices.map((d) => [d.id, d.connected]));
      entry.devices = await entry.driver.listDevices();
      if (JSON.stringify(entry.devices.map((d) => [d.id, d.connected])) !== before) changed();
    } catch {
      // The driver reported why already.
    }
  }
}
