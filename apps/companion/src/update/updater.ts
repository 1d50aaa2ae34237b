// The companion's updates: a check at start and every 6 hours (with jitter) or on "Check now", the
// download verified beside the executable, and the install at the next quiet moment (no followed
// session, no flag effect playing, or the lights paused) when "Install updates automatically" is on
// or the fan asked for it. `--no-update` turns all of it off.
import path from 'node:path';
import type { Logger } from '../system/log.js';
import type { StateFile } from '../system/state-file.js';
import { APP_VERSION } from '../version.js';
import { checkForUpdate, type CheckResult } from './check.js';
import { downloadUpdate } from './download.js';
import { currentUpdatePlatform, type Manifest, type UpdatePlatform } from './manifest.js';
import { trustedKeysFor } from './trusted-keys.js';

export const UPDATE_INTERVAL_MS = 6 * 60 * 60_000;
export const UPDATE_JITTER_MS = 30 * 60_000;

export interface UpdateView {
  enabled: boolean;
  running: string;
  newest: string | null;
  notes: string | null;
  auto: boolean;
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
  close(): void;
}

export function createUpdater(options: UpdaterOptions): Updater {
  const { store, log } = options;
  const running = options.running ?? APP_VERSION;
  const platform = options.platform === undefined ? currentUpdatePlatform() : options.platform;
  const keys = options.trustedKeys ?? trustedKeysFor(options.server);
  const interval = options.intervalMs ?? UPDATE_INTERVAL_MS;
  const jitter = options.jitterMs ?? UPDATE_JITTER_MS;
  const settings = () => store.get().updates ?? { auto: true, failed: [] as string[] };
  const view: UpdateView = {
    enabled: options.enabled,
    running,
    newest: null,
    notes: null,
    auto: settings().auto,
    state: options.enabled ? 'idle' : 'off',
    message: options.enabled ? null : 'Updates are turned off (--no-update).',
    notice: settings().note ?? null,
    checkedAt: null,
  };
  let ready: { file: string; manifest: Manifest } | null = null;
  let wanted = false;
  let checking: Promise<UpdateView> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let quietTimer: NodeJS.Timeout | null = null;
  let closed = false;

  const say = (message: string, level: 'info' | 'warn' = 'info') => {
    view.message = message;
    log[level](message);
  };

  async function fetchAndDownload(result: Extract<CheckResult, { kind: 'available' }>): Promise<void> {
    const { manifest } = result;
    if (ready?.manifest.version === manifest.version) return;
    if (!options.executable || !platform) {
      say(`Version ${manifest.version} is available: download it from ${options.server}.`);
      return;
    }
    view.state = 'downloading';
    view.message = `Downloading version ${manifest.version}…`;
    const target = path.join(
      path.dirname(options.executable),
      `${path.basename(options.executable)}.download`,
    );
    const outcome = await downloadUpdate({
      url: result.url,
      expected: result.file,
      platform,
      target,
      version: manifest.version,
    }).catch((error: unknown) => ({
      ok: false as const,
      message: `Could not save version ${manifest.version} beside ${options.executable}: ${error instanceof Error ? error.message : String(error)}`,
    }));
    view.state = 'idle';
    if (!outcome.ok) {
      say(outcome.message, 'warn');
      return;
    }
    ready = { file: outcome.file, manifest };
    view.state = 'ready';
    say(
      `Version ${manifest.version} is downloaded and checked. It installs when no session is followed and no flag effect plays.`,
    );
  }

  async function check(): Promise<UpdateView> {
    if (!options.enabled || closed) return view;
    view.state = 'checking';
    view.message = 'Checking for updates…';
    const result = await checkForUpdate({
      server: options.server,
      running,
      platform,
      trustedKeys: keys,
      channel: options.channel ?? 'stable',
      now: new Date(),
      failed: settings().failed,
    });
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
      const { file, manifest } = ready;
      ready = null;
      view.state = 'installing';
      say(`Installing version ${manifest.version}…`);
      void options.install(file, manifest).then((failure) => {
        view.state = 'idle';
        say(failure.message, 'warn');
      });
    };
    attempt();
  }

  const checkNow = () => (checking ??= check().finally(() => (checking = null)));
  const schedule = (delay: number) => {
    if (closed || !options.enabled) return;
    timer = setTimeout(() => {
      void checkNow().finally(() => schedule(interval + (Math.random() * 2 - 1) * jitter));
    }, delay);
    timer.unref();
  };
  schedule(options.firstCheckMs ?? 3_000);

  return {
    view: () => ({ ...view }),
    checkNow,
    setAuto(auto) {
      store.update((s) => ({ ...s, updates: { ...settings(), auto } }));
      view.auto = auto;
      if (auto && ready) waitForQuiet();
    },
    installWhenQuiet() {
      if (!ready) return false;
      wanted = true;
      waitForQuiet();
      return true;
    },
    lookForQuiet() {
      if (!quietTimer) return;
      clearTimeout(quietTimer);
      quietTimer = null;
      waitForQuiet();
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      if (quietTimer) clearTimeout(quietTimer);
    },
  };
}
