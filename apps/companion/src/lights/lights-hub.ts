import {
  CLOUD_TWIN,
  createLightProgram,
  createTestProgram,
  getSettledLook,
  isEffectFlag,
  type LightColor,
  type LookSet,
} from '@flaglight/core';
import {
  createEffectPlayer,
  type EffectPlayer,
  type LightDriver,
  type LightDeviceInfo,
} from '@flaglight/lights';
import type { Logger } from '../system/log.js';
import { createDeviceReading } from './device-reading.js';
import { askOnce, createFlagTimeline } from './flag-timeline.js';
import {
  createLightJoins,
  joiningLights,
  showFlagOnJoiningLights,
  type JoiningEntry,
  type JoinRead,
} from './joining-lights.js';
import type { LanProvider } from './lan-provider.js';
import { fallbackLightLabel, normalizeLightLabel } from './light-label.js';
import { css } from './look-css.js';
import { createTestGiveBack } from './test-give-back.js';

export { css };

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
  /** False while it does not answer, and while its driver cannot read the device list (a bridge gone from its address). */
  reachable: boolean;
  /** The look last sent to it while it answered: a colour name and a CSS colour for the status page. */
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
  /** The device list being read now, if it is: one read at a time (a silent address takes 10 s). */
  reading: Promise<void> | null;
  /** `add` read its first list (and gave its lights the race's flag): lights found later join as ticked ones. */
  listed: boolean;
  /**
   * Its lights that answered at least once in this run. One that never did takes no flag (a WLED
   * address not answering yet would keep it for the device it turns out to be, and send it before
   * the room could read that device): it joins when it first answers.
   */
  answered: Set<string>;
  unsubscribe: () => void;
  refresher: NodeJS.Timeout;
}

export interface LightsHub {
  /**
   * Adds a driver (a LIFX scan, a paired Hue bridge); `key` names it so it can be replaced. Its
   * lights take the race's flag now and the flags queued behind the delay (a bridge found at a new
   * address, a device paired during a session).
   */
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
  /**
   * Plays a flag at its target time (behind the broadcast delay); `stillPlays`, asked then, can
   * drop it (its session no longer drives the lights).
   */
  schedule(flag: string, atEpochMs: number, stillPlays?: () => boolean): void;
  /**
   * Shows one look now on every driven light (a green dimmed after it held): what the flag still had
   * to send is dropped, the race's flag stays what it was. Nothing while paused.
   */
  showLook(look: { color: LightColor; brightness: number }, transitionMs: number): void;
  /**
   * Drops every flag waiting for its time and every step not yet sent: the lights stay as they are,
   * and a driver added later is not given the race's flag either (unlinked).
   */
  cancelAll(): void;
  /**
   * A session's end was carried out (the room given back, or the lights turned off): what was still
   * to be sent is dropped and the race's flag is over, so a later test goes back to what the lights
   * show then (read before it and given back after, as with no race), and a light that joins keeps
   * what it shows. After "leave" the hub is not told: a test goes back to the race's last flag.
   */
  endRace(): void;
  /** Scans every driver again. */
  rescan(): Promise<void>;
  /** Each driver with the ids of its lights the flags drive now (the room's snapshot reads and restores them). */
  drivers(): { provider: LanProvider; driver: LanDriver; driven: string[] }[];
  /**
   * Lights that join the driven ones (ticked, a driver added, or found by a driver's rescan when every
   * light found is driven) are read by `read` before any flag reaches them, when it reads (the room's
   * snapshot mid-session).
   */
  readBeforeJoining(read: JoinRead<LanDriver> | null): void;
  /** Called when the list of lights or their reachability changes. */
  onChange(listener: () => void): () => void;
  close(): Promise<void>;
}

/**
 * The colour a flag settles on in a look set (Trackside without one), for the status page; null
 * for the momentary fastest lap and a flag the set leaves alone.
 */
export function flagLook(flag: string, looks?: LookSet): { name: string; css: string } | null {
  if (!isEffectFlag(flag)) return null;
  const look = getSettledLook(flag, looks);
  return look ? { name: look.color.name, css: css(look.color, look.brightness) } : null;
}

/** Logs a driver's warning, the same one from the same driver at most once in REPEAT_WARNING_MS. */
function createWarnOnce(log: Logger): (key: string, message: string) => void {
  const lastWarning = new Map<string, { message: string; at: number }>();
  return (key, message) => {
    const last = lastWarning.get(key);
    const now = Date.now();
    if (last && last.message === message && now - last.at < REPEAT_WARNING_MS) return;
    lastWarning.set(key, { message, at: now });
    log.warn(`${key}: ${message}`);
  };
}

/** What the status page shows a light last sent this step. */
function stepLook(step: { kind: string; color: LightColor; brightness: number }): {
  name: string;
  css: string;
} {
  return {
    name: step.kind === 'strobe' ? `${step.color.name} (flashing)` : step.color.name,
    css: css(step.color, step.brightness),
  };
}

/** One driver's lights as the status page and the server's report see them. */
function hubLights(
  entry: Entry,
  driven: ReadonlySet<string>,
  lastLook: ReadonlyMap<string, HubLight['lastColor']>,
): HubLight[] {
  return entry.devices.map((device) => ({
    provider: entry.provider,
    id: device.id,
    // A device names itself: cleaned once here for the status page and the server's report.
    label: normalizeLightLabel(device.label, fallbackLightLabel(entry.provider, device.id)),
    reachable: device.connected,
    lastColor: lastLook.get(`${entry.provider}:${device.id}`) ?? null,
    driven: driven.has(device.id),
  }));
}

/** One driver's entry: its player plays on `devices`, each step it sends is what its driven lights last showed. */
function createEntry(
  provider: LanProvider,
  key: string,
  driver: LanDriver,
  deps: {
    devices: (entry: Entry) => string[];
    driven: (entry: Entry) => string[];
    looks: () => LookSet | undefined;
    warn: (key: string, message: string) => void;
    refreshDevices: (entry: Entry) => Promise<void>;
    lastLook: Map<string, { name: string; css: string }>;
  },
): Entry {
  const { warn } = deps;
  const entry: Entry = {
    provider,
    key,
    driver,
    devices: [],
    reading: null,
    listed: false,
    answered: new Set(),
    unsubscribe: () => undefined,
    refresher: setInterval(() => void deps.refreshDevices(entry), DEVICE_REFRESH_MS),
    player: createEffectPlayer({
      driver,
      devices: () => deps.devices(entry),
      looks: deps.looks,
      onWarning: (message) => {
        if (!message.startsWith('No devices selected')) warn(key, message);
      },
      onError: (error) => warn(key, error.message),
      onStep: ({ step }) => {
        const look = stepLook(step);
        const answering = new Set(entry.devices.filter((d) => d.connected).map((d) => d.id));
        for (const id of deps.driven(entry))
          if (answering.has(id)) deps.lastLook.set(`${provider}:${id}`, look);
      },
    }),
  };
  entry.refresher.unref();
  entry.unsubscribe = driver.subscribe((event) => {
    if (event.type === 'error' || event.type === 'disconnect') warn(key, event.error.message);
    else if (event.type === 'warning') warn(key, event.message);
    // Reachability is part of the device list: read it again.
    void deps.refreshDevices(entry);
  });
  return entry;
}

/** An entry's lights `driven` as lights that join. */
const joining = (e: Entry, driven: string[]): JoiningEntry<LanDriver> => ({
  key: e.key,
  provider: e.provider,
  driver: e.driver,
  driven,
});

/** Lights that joined mid-race: once read (when the room reads them), the race's flag, settled. */
function createJoinLights(deps: {
  joins: ReturnType<typeof createLightJoins<LanDriver>>;
  /** Every entry's lights the flags may reach now. */
  selected: () => JoiningEntry<LanDriver>[];
  /** The race's flag the lights show; null with none, or while paused. */
  lasting: () => string | null;
  looks: () => LookSet | undefined;
  lastLook: Map<string, { name: string; css: string }>;
  warn: (key: string, message: string) => void;
}) {
  /** Of the lights that joined, those still driven now (the fan may untick one while it is read). */
  const stillDriven = (joined: readonly JoiningEntry<LanDriver>[]) => {
    const ids = new Map(joined.map((e) => [e.key, new Set(e.driven)]));
    return deps.selected().map((e) => ({ ...e, driven: e.driven.filter((id) => ids.get(e.key)?.has(id)) }));
  };
  return (joined: JoiningEntry<LanDriver>[]) =>
    deps.joins.join(joined, () => {
      const flag = deps.lasting();
      if (flag !== null)
        showFlagOnJoiningLights(stillDriven(joined), flag, deps.looks(), deps.lastLook, deps.warn);
    });
}

/**
 * Every LAN light of the companion behind one face: one effect player per driver (the same player
 * and effect programs as the web app), the selection from the account's preferences, pause, and
 * the last look sent to each light for the status page.
 */
export function createLightsHub(options: {
  log: Logger;
  /** The account's look set, read as each flag starts; undefined plays Trackside. */
  looks?: () => LookSet | undefined;
}): LightsHub {
  const { log } = options;
  const entries = new Map<string, Entry>();
  const lastLook = new Map<string, { name: string; css: string }>();
  const listeners = new Set<() => void>();
  let selection: Selection = { selectedLights: {}, sharedLightsDriver: 'companion' };
  let isPaused = false;
  const timeline = createFlagTimeline((flag) => {
    const program = createLightProgram(flag, options.looks?.());
    return program.ok && program.program.steps.length === 0;
  });
  const warnOnce = createWarnOnce(log);
  const testGiveBack = createTestGiveBack({ raceOn: () => timeline.racing(), warn: warnOnce });
  const joins = createLightJoins<LanDriver>();

  const changed = () => [...listeners].forEach((listener) => listener());

  const idsOf = (entry: Entry) =>
    drivenIds(
      entry.provider,
      entry.devices.map((d) => ({ id: d.id, reachable: d.connected })),
      selection,
    );

  const drivenEntries = () => [...entries.values()].map((e) => ({ ...e, driven: isPaused ? [] : idsOf(e) }));
  /** The driven lights a flag may reach: those that answered in this run. */
  const playable = (entry: Entry) => idsOf(entry).filter((id) => entry.answered.has(id));
  /** Every entry's lights the flags may reach, paused or not. */
  const selected = () => [...entries.values()].map((e) => joining(e, playable(e)));
  const joinLights = createJoinLights({
    joins,
    selected,
    lasting: () => (isPaused ? null : timeline.now().lasting),
    looks: () => options.looks?.(),
    lastLook,
    warn: warnOnce,
  });
  const { refresh, refreshDevices } = createDeviceReading<Entry>(log, changed, (entry, devices) => {
    const before = new Map([[entry.key, playable(entry)]]);
    entry.devices = devices;
    for (const device of devices) if (device.connected) entry.answered.add(device.id);
    if (!entry.listed || entries.get(entry.key) !== entry) return;
    // Found by a rescan (every light found is driven), or answering at last: held and read as ticked.
    joinLights(joiningLights([joining(entry, playable(entry))], before));
  });

  return {
    async add(provider, key, driver) {
      await this.remove(key);
      const entry = createEntry(provider, key, driver, {
        // A light that joined mid-session takes no flag before the room has read it.
        devices: (e) => (isPaused ? [] : joins.ready(key, playable(e))),
        driven: idsOf,
        looks: () => options.looks?.(),
        warn: warnOnce,
        refreshDevices,
        lastLook,
      });
      entries.set(key, entry);
      await refresh(entry);
      entry.listed = true;
      // The race goes on: these lights show its flag now (mid-session once the room read them), and
      // the queued ones at their time.
      for (const next of timeline.now().queued) entry.player.schedule(next.flag, next.at, next.plays);
      joins.join(joiningLights([joining(entry, playable(entry))], new Map()), () => {
        const { lasting } = timeline.now();
        if (lasting !== null && !isPaused && entries.get(key) === entry) entry.player.play(lasting);
      });
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
      return [...entries.values()].flatMap((entry) => hubLights(entry, new Set(idsOf(entry)), lastLook));
    },
    setSelection(next) {
      const before = new Map(selected().map((entry) => [entry.key, entry.driven]));
      selection = next;
      joinLights(joiningLights(selected(), before));
    },
    setPaused(paused) {
      isPaused = paused;
      if (!paused) return;
      testGiveBack.drop();
      timeline.dropQueued();
      for (const entry of entries.values()) entry.player.cancelAll();
    },
    paused: () => isPaused,
    play(flag) {
      if (!createLightProgram(flag).ok) return false;
      timeline.played(flag);
      testGiveBack.drop();
      for (const entry of entries.values()) entry.player.play(flag);
      return true;
    },
    playTest(flag) {
      if (!createTestProgram(flag).ok) return false;
      // With no race followed, the lights are read first and given back once the test ends.
      void testGiveBack.playTest(flag, options.looks?.(), drivenEntries, () => {
        for (const entry of entries.values()) entry.player.playMomentary(flag);
      });
      return true;
    },
    schedule(flag, atEpochMs, stillPlays) {
      if (!createLightProgram(flag).ok) return;
      const plays = askOnce(stillPlays);
      timeline.queue(flag, atEpochMs, plays);
      for (const entry of entries.values()) entry.player.schedule(flag, atEpochMs, plays);
    },
    showLook(look, transitionMs) {
      if (isPaused) return;
      for (const entry of entries.values()) entry.player.showLook(look, transitionMs);
    },
    cancelAll() {
      testGiveBack.drop();
      timeline.clear();
      for (const entry of entries.values()) entry.player.cancelAll();
    },
    endRace() {
      this.cancelAll();
      for (const entry of entries.values()) entry.player.endLasting();
    },
    async rescan() {
      await Promise.all([...entries.values()].map(refresh));
    },
    drivers: drivenEntries,
    readBeforeJoining: (read) => joins.setRead(read),
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      for (const key of [...entries.keys()]) await this.remove(key);
      listeners.clear();
    },
  };
}
