import type { LightFollowSettings, LookSet } from '@flaglight/core';
import type { DrivenProvider } from './lights-context';
import type { RoomStore } from './room-store';

// The lights engine's options, and the small helpers it shares with its callers.

export interface Notifier {
  success(title: string): void;
  warning(title: string): void;
  error(title: string, message?: string): void;
}

export interface LightsEngineOptions {
  lifxApiUrl: string;
  /** The app's session token, for the Hue routes of the app's server. */
  sessionToken: () => string | null;
  notify: Notifier;
  /** Called with the ids of a fresh device list, so the stored selection can be pruned. */
  onDevicesLoaded?: (provider: DrivenProvider, ids: string[]) => void;
  /** The user's stored selection per provider. */
  selection: () => Record<DrivenProvider, readonly string[]>;
  /** Tells when the stored selection may have changed (it decides which provider is driven). */
  subscribeSelection?: (listener: () => void) => () => void;
  /** Whether the on-screen light is one of the user's lights (LocalSettings.screenLight); default yes. */
  screenEnabled?: () => boolean;
  /**
   * The account's look set as this browser holds it (the preferences sync keeps it); undefined
   * plays Trackside. Read at each flag, so a change mid-session applies to the next flag. Hue and
   * Govee flags are played by the server, which reads the account's stored looks itself.
   */
  looks?: () => LookSet | undefined;
  /** The account's follow settings (which sessions drive the lights, what comes afterwards). */
  follow?: () => LightFollowSettings | undefined;
  /**
   * True when the on-screen light must not flash whatever the looks say: the system asks for
   * reduced motion and the fan has not turned flashing on for this screen (decision 046).
   */
  screenNoFlashing?: () => boolean;
  /** Keeps "as it was" beyond this page (a reload mid-session); none: the page's memory only. */
  roomStore?: RoomStore;
  /**
   * Whether the session of a snapshot an earlier page kept is over by now (then it is given back);
   * none: every kept snapshot is.
   */
  sessionOver?: (key: string) => Promise<boolean>;
  /** Keeps the LIFX token in the browser (SPEC §3). */
  tokenStore: { read(): string | null; write(token: string): void; clear(): void };
}

/** A flash (on and off) every 350 ms: under three a second. */
export const SCREEN_MIN_STROBE_HALF_PERIOD_MS = 175;

/** The same error toast twice within this window is shown once (a failing strobe repeats). */
const ERROR_REPEAT_WINDOW_MS = 5000;

/** Error toasts that say the same thing again within ERROR_REPEAT_WINDOW_MS are dropped. */
export function createErrorToasts(notify: Notifier, now: () => number = Date.now) {
  const last = new Map<string, number>();
  return {
    show: (message: string): void => {
      const at = now();
      const previous = last.get(message);
      if (previous !== undefined && at - previous < ERROR_REPEAT_WINDOW_MS) return;
      last.set(message, at);
      notify.error(message);
    },
  };
}

/** An error's own message, or the fallback when it has none. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof Error && error.message !== '') return error.message;
  return fallback;
}
