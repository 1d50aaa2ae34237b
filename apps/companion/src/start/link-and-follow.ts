// The link to the account and the follower of its live session: linked already, the companion
// follows at once; not linked (or unlinked later), it offers a code and follows once linked.
import os from 'node:os';
import { isEffectFlag } from '@flaglight/core';
import type { CompanionOptions } from '../companion-types.js';
import { startFollower, type FollowerHandlers } from '../follow/follower.js';
import type { LanLights } from '../lights/lan-start.js';
import type { LightsHub } from '../lights/lights-hub.js';
import { linkDevice, type LinkProgress } from '../link/device-flow.js';
import { ServerError, type ServerApi } from '../link/server-api.js';
import type { Logger } from '../system/log.js';
import { openBrowser } from '../system/open-browser.js';
import { platformName } from '../system/paths.js';
import type { StateFile } from '../system/state-file.js';
import type { AccountPreferences } from './account-preferences.js';
import type { FollowState } from './follow-state.js';
import type { CompanionPlayback } from './start-playback.js';

export interface LinkDeps {
  api: ServerApi;
  server: string;
  options: Pick<CompanionOptions, 'deviceName' | 'openBrowser'>;
  store: StateFile;
  log: Logger;
  hub: LightsHub;
  follow: FollowState;
  flags: CompanionPlayback;
  preferences: AccountPreferences;
  reportLights: () => void;
  lan: Pick<LanLights, 'kick'>;
  signal: AbortSignal;
}

export interface AccountLink {
  /** Unlinked here, or the server refused the token on a call of its own (401): the follower stops too. */
  unlinkHere(message: string): Promise<void>;
  /** True (and the companion unlinks) when the error is the server refusing the token in use. */
  refusedToken(token: string, error: unknown): boolean;
}

export function startLinking(deps: LinkDeps): AccountLink {
  const { store, log, hub, follow } = deps;
  const { playback, fallback } = deps.flags;

  /**
   * The link is gone (unlinked in Settings, or here): the lights stop at once, flags queued behind
   * the delay included, and stay as they are; following stops and a new code is offered.
   */
  const forget = (message: string) => {
    playback.clear();
    hub.cancelAll();
    if (!store.get().token) return;
    log.warn(`${message} Link it again to follow the race.`);
    store.update((s) => ({ ...s, token: undefined, device: undefined }));
    follow.follower = null;
    follow.status = { state: 'unlinked', sessionKey: null, message, lastEventAt: null };
    fallback.followerStatus(follow.status);
    hub.setSelection({ selectedLights: {}, sharedLightsDriver: 'companion' });
    void runLink(false);
  };

  const unlinkHere = async (message: string) => {
    const stopped = follow.follower;
    follow.follower = null;
    playback.clear();
    hub.cancelAll();
    await stopped?.stop();
    forget(message);
  };

  const refusedToken = (token: string, error: unknown) => {
    if (!(error instanceof ServerError && error.status === 401) || store.get().token !== token) return false;
    void unlinkHere(error.message);
    return true;
  };

  const followWith = (token: string) => {
    follow.follower = startFollower({
      api: deps.api,
      token,
      handlers: followerHandlers(deps, token, forget),
    });
  };

  const runLink = async (firstStart: boolean) => {
    const outcome = await linkDevice(
      deps.api,
      { name: deps.options.deviceName ?? os.hostname(), platform: platformName() },
      linkProgress(deps, firstStart),
      deps.signal,
    );
    follow.pendingCode = null;
    if (!outcome.ok) {
      if (outcome.reason === 'denied')
        log.warn('Linking was cancelled in the browser. Run `flaglight-companion link` to try again.');
      return;
    }
    const { access_token: token, device } = outcome.token;
    store.update((s) => ({ ...s, server: deps.server, token, device }));
    log.info(`Linked as "${device.name}".`);
    follow.markLinked();
    await deps.preferences.refresh(token);
    deps.reportLights();
    followWith(token);
  };

  const token = store.get().token;
  if (token) {
    follow.markLinked();
    void deps.preferences.refresh(token);
    followWith(token);
  } else {
    void runLink(true);
  }
  return { unlinkHere, refusedToken };
}

/** While linking: the code shown (and the browser opened on the first start's first code). */
function linkProgress(deps: LinkDeps, firstStart: boolean): LinkProgress {
  const { follow, log } = deps;
  let first = firstStart;
  return {
    onCode(code) {
      follow.pendingCode = code;
      log.info(`Open ${code.verification_uri_complete} and confirm ${code.user_code}`);
      if (first && deps.options.openBrowser) void openBrowser(code.verification_uri_complete);
      first = false;
    },
    onExpired() {
      log.info('The link code expired: here is a new one.');
    },
    onUnreachable(message) {
      follow.status = { ...follow.status, state: 'reconnecting', message };
    },
  };
}

/** What the follower's events do: flags to the playback, preferences applied, its state kept and told. */
function followerHandlers(
  deps: LinkDeps,
  token: string,
  forget: (message: string) => void,
): FollowerHandlers {
  const { follow, log } = deps;
  const { playback, fallback, home, sessions } = deps.flags;
  return {
    onFlags: (flags) => void playback.onFlags(fallback.fromServer(flags)),
    onPreferences: deps.preferences.apply,
    onTest(state) {
      if (isEffectFlag(state)) playback.showTest(state, 'Test from the web app');
    },
    onUnlinked(message) {
      forget(message);
    },
    onStatus(next) {
      if (next.state !== follow.status.state) {
        if (next.state === 'following') log.info('Following the live session');
        else if (next.message) log.info(next.message);
      }
      follow.status = next;
      fallback.followerStatus(next);
      sessions.followerStatus(next);
      home.following(next.sessionKey, next.state !== 'waiting' && next.state !== 'unlinked');
    },
    onConnected() {
      void deps.preferences.refresh(token);
      deps.reportLights();
      // A demo server that restarted has its LAN simulator on new ports.
      deps.lan.kick();
    },
  };
}
