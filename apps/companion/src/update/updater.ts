// The companion's updates: a check at start and every 6 hours (with jitter) or on "Check now", the
// download verified beside the executable, and the install at the next quiet moment (no followed
// session, no flag effect playing, or the lights paused) when "Install updates automatically" is on
// or the fan asked for it. `--no-update` turns all of it off.
import path from 'node:path';
import type { Logger } from '../system/log.js';
import type { CompanionState, StateFile } from '../system/state-file.js';
import { APP_VERSION } from '../version.js';
import { checkForUpdate, type CheckInput, type CheckResult } from './check.js';
import { downloadUpdate } from './download.js';
import { createHandPick, type HandPickResult } from './hand-pick.js';
import { compareVersions, currentUpdatePlatform, type Manifest, type UpdatePlatform } from './manifest.js';
import type { ReleaseOffer } from './releases.js';
import { trustedKeysFor } from './trusted-keys.js';

export const UPDATE_INTERVAL_MS = 6 * 60 * 60_000;
export const UPDATE_JITTER_MS = 30 * 60_000;

export interface UpdateView {
  enabled: boolean;
  running: string;
  newest: string | null;
  notes: string | null;
  auto: boolean;
  /** Stable, or beta (which also takes stable releases newer than its last beta). */
  channel: 'stable' | 'beta';
  /** The versions the server's index offers to pick by hand ("Other versions"), once asked for. */
  offered: ReleaseOffer[] | null;
  state: 'off' | 'idle' | 'checking' | 'downloading' | 'ready' | 'installing';
  /** The outcome of the last step, one plain sentence. */
  message: string | null;
  /** A lasting note from an earlier run (a rolled-back update). */
  notice: string | null;
  checkedAt: string | null;
}

export interface UpdaterOptions {
  server: string;
  /** False with `--no-update`. */
  enabled: boolean;
  store: StateFile;
  log: Logger;
  /** The running executable; null when not packaged (tsx): checks only, nothing installs. */
  executable: string | null;
  /** No followed session and no effect playing, or the lights paused. */
  isQuiet: () => boolean;
  /** Puts the checked file in place and hands over to it; resolves only when that failed. */
  install: (file: string, manifest: Manifest) => Promise<{ ok: false; message: string }>;
  running?: string;
  platform?: UpdatePlatform | null;
  trustedKeys?: readonly string[];
  channel?: 'stable' | 'beta';
  firstCheckMs?: number;
  intervalMs?: number;
  jitterMs?: number;
  quietPollMs?: number;
}

export interface Updater {
  view(): UpdateView;
  checkNow(): Promise<UpdateView>;
  setAuto(auto: boolean): void;
  /** Install the downloaded version at the next quiet moment even with the switch off. */
  installWhenQuiet(): boolean;
  /** Something that may have made this a quiet moment happened (the lights were paused): look now. */
  lookForQuiet(): void;
  /** Stable or beta, kept in the state file; the next check follows it. */
  setChannel(channel: 'stable' | 'beta'): void;
  /** The server's index of versions, each verified: shown on the status page to pick from. */
  listVersions(): Promise<UpdateView>;
  /**
   * Downloads the version picked by hand and installs it at the next quiet moment. An older one
   * needs `confirmOlder` (the page asked "Install version X, older than the running Y?"), and only
   * that version, this once, is allowed to be older.
   */
  installVersion(version: string, confirmOlder: boolean): Promise<HandPickResult>;
  close(): void;
}

export type { HandPickResult } from './hand-pick.js';

/** A check after `first` ms, then every `interval` ± `jitter`; the function returned stops them. */
function scheduleChecks(check: () => Promise<unknown>, first: number, interval: number, jitter: number) {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (delay: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      void check().finally(() => schedule(interval + (Math.random() * 2 - 1) * jitter));
    }, delay);
    timer.unref();
  };
  schedule(first);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
  };
}

type UpdateSettings = NonNullable<CompanionState['updates']>;

function initialView(
  enabled: boolean,
  running: string,
  settings: Pick<UpdateSettings, 'auto' | 'note'>,
  channel: 'stable' | 'beta',
): UpdateView {
  return {
    enabled,
    running,
    newest: null,
    notes: null,
    auto: settings.auto,
    channel,
    offered: null,
    state: enabled ? 'idle' : 'off',
    message: enabled ? null : 'Updates are turned off (--no-update).',
    notice: settings.note ?? null,
    checkedAt: null,
  };
}

/** The checked file written as `<executable>.download`, or why not (one plain sentence). */
function downloadBeside(
  executable: string,
  platform: UpdatePlatform,
  { manifest, file, url }: Pick<Extract<CheckResult, { kind: 'available' }>, 'manifest' | 'file' | 'url'>,
) {
  const target = path.join(path.dirname(executable), `${path.basename(executable)}.download`);
  return downloadUpdate({ url, expected: file, platform, target, version: manifest.version }).catch(
    (error: unknown) => ({
      ok: false as const,
      message: `Could not save version ${manifest.version} beside ${executable}: ${error instanceof Error ? error.message : String(error)}`,
    }),
  );
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { store, log } = options;
  const running = options.running ?? APP_VERSION;
  const platform = options.platform === undefined ? currentUpdatePlatform() : options.platform;
  const keys = options.trustedKeys ?? trustedKeysFor(options.server);
  const settings = () => store.get().updates ?? { auto: true, failed: [] as string[] };
  const channel = () => settings().channel ?? options.channel ?? 'stable';
  const save = (patch: Partial<UpdateSettings>) =>
    store.update((s) => ({ ...s, updates: { ...settings(), ...patch } }));
  const view = initialView(options.enabled, running, settings(), channel());
  /** The checked download waiting for its quiet moment; `byHand` when the fan picked it. */
  let ready: { file: string; manifest: Manifest; byHand: boolean } | null = null;
  let wanted = false;
  let checking: Promise<UpdateView> | null = null;
  let quietTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const say = (message: string, level: 'info' | 'warn' = 'info') => {
    view.message = message;
    log[level](message);
  };

  async function fetchAndDownload(
    result: Pick<Extract<CheckResult, { kind: 'available' }>, 'manifest' | 'file' | 'url'>,
    byHand = false,
  ): Promise<void> {
    const { manifest } = result;
    if (ready?.manifest.version === manifest.version) return;
    // A version the fan picked by hand is not swapped for the newest by a check meanwhile.
    if (ready?.byHand && !byHand) return;
    if (!options.executable || !platform)
      return say(`Version ${manifest.version} is available: download it from ${options.server}.`);
    view.state = 'downloading';
    view.message = `Downloading version ${manifest.version}…`;
    const outcome = await downloadBeside(options.executable, platform, result);
    view.state = outcome.ok ? 'ready' : 'idle';
    if (!outcome.ok) return say(outcome.message, 'warn');
    ready = { file: outcome.file, manifest, byHand };
    say(
      `Version ${manifest.version} is downloaded and checked. It installs when no session is followed and no flag effect plays.`,
    );
  }

  const fixed = { server: options.server, running, platform, trustedKeys: keys };
  const checkInput = (): CheckInput => {
    const { failed, declined } = settings();
    return { ...fixed, channel: channel(), now: new Date(), failed, declined };
  };

  async function check(): Promise<UpdateView> {
    if (!options.enabled || closed) return view;
    view.state = 'checking';
    view.message = 'Checking for updates…';
    const result = await checkForUpdate(checkInput());
    view.checkedAt = new Date().toISOString();
    view.state = ready ? 'ready' : 'idle';
    if ('manifest' in result && result.manifest && result.kind !== 'refused') {
      view.newest = result.manifest.version;
      view.notes = result.manifest.notes || null;
    }
    if (result.kind === 'available') await fetchAndDownload(result);
    else say(result.message, result.kind === 'refused' ? 'warn' : 'info');
    if (ready && (view.auto || wanted)) waitForQuiet();
    return view;
  }

  function waitForQuiet(): void {
    if (quietTimer || closed || !ready) return;
    const attempt = () => {
      quietTimer = null;
      if (closed || !ready) return;
      if (!options.isQuiet()) {
        quietTimer = setTimeout(attempt, options.quietPollMs ?? 5_000);
        quietTimer.unref();
        return;
      }
      const { file, manifest, byHand } = ready;
      ready = null;
      // Stepping back by hand: the version left is not installed again by itself afterwards.
      if (byHand && compareVersions(manifest.version, running) < 0)
        save({ declined: [...new Set([...(settings().declined ?? []), running])] });
      view.state = 'installing';
      say(`Installing version ${manifest.version}…`);
      void options.install(file, manifest).then((failure) => {
        view.state = 'idle';
        say(failure.message, 'warn');
      });
    };
    attempt();
  }

  const want = () => {
    wanted = true;
    waitForQuiet();
  };
  const handPick = createHandPick({
    active: () => options.enabled && !closed,
    ...{ input: checkInput, running, view, say },
    downloadThenInstall: async (release) => {
      await fetchAndDownload(release, true);
      if (ready?.manifest.version !== release.manifest.version) return false;
      want();
      return true;
    },
  });

  const checkNow = () => (checking ??= check().finally(() => (checking = null)));
  const stopChecks = options.enabled
    ? scheduleChecks(
        checkNow,
        options.firstCheckMs ?? 3_000,
        options.intervalMs ?? UPDATE_INTERVAL_MS,
        options.jitterMs ?? UPDATE_JITTER_MS,
      )
    : () => undefined;

  return {
    view: () => ({ ...view }),
    checkNow,
    setAuto(auto) {
      save({ auto });
      view.auto = auto;
      if (auto && ready) waitForQuiet();
    },
    installWhenQuiet: () => (ready ? (want(), true) : false),
    setChannel(chosen) {
      save({ channel: chosen });
      view.channel = chosen;
      view.offered = null;
    },
    listVersions: handPick.listVersions,
    installVersion: handPick.installVersion,
    lookForQuiet() {
      if (!quietTimer) return;
      clearTimeout(quietTimer);
      quietTimer = null;
      waitForQuiet();
    },
    close() {
      closed = true;
      stopChecks();
      if (quietTimer) clearTimeout(quietTimer);
    },
  };
}
