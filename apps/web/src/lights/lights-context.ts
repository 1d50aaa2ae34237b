import type { EffectFlag, SessionDescription } from '@flaglight/core';
import { createContext, useContext } from 'react';

/**
 * What the rest of the web app may ask of the connected lights.
 * The lights work provides the value (`LightsProvider`, mounted once above the routes so a
 * connection survives moving between Dashboard and Settings); Race Control only consumes it.
 */
/** `govee`: Govee's cloud through the app's server; its lights follow flags beside Hue or LIFX. */
export type DrivenProvider = 'hue' | 'lifx' | 'govee';

export interface LightsApi {
  /**
   * The provider that flags drive: Hue when it is connected with at least one light selected,
   * else LIFX on the same terms (SPEC §4 Live connection: "If the bridge provider and cloud
   * provider are both ready, the bridge provider is driven and the other is not"), else Govee on
   * the same terms, else null. Govee's lights, when ready, also follow every flag beside Hue or
   * LIFX (decision 024).
   */
  drivenProvider: DrivenProvider | null;
  /** True while the connections are still being restored after a page load. */
  restoring: boolean;
  /**
   * Plays a flag on the driven provider's selected lights (and the on-screen light) now, or at
   * `atEpochMs` when given (a change held back by the broadcast delay). A newer flag supersedes
   * what is still playing. Unknown flag: warning, ignored. Returns false when no provider is ready
   * (the caller shows SPEC §8's '... not connected or no devices selected' alert for test flags).
   */
  playFlag(flag: EffectFlag, options?: { atEpochMs?: number }): boolean;
  /** A test of a flag: played now, then each light goes back to the race's flag (see LightsEngine.playTest). */
  playTest(flag: EffectFlag): boolean;
  /** Drops every scheduled flag and pending effect step (disconnect of the live session). */
  cancelPending(): void;
  /**
   * The session followed from now (null: none), with `key` naming it for "as it was" (the lights
   * read before its first flag, given back at its end). A session whose kind the account does not
   * follow (`lightFollow.sessions`) drives no light; the dashboard still shows its flags.
   */
  followSession(session: SessionDescription | null, key?: string): void;
}

const NO_LIGHTS: LightsApi = {
  drivenProvider: null,
  restoring: false,
  playFlag: () => false,
  playTest: () => false,
  cancelPending: () => undefined,
  followSession: () => undefined,
};

export const LightsContext = createContext<LightsApi>(NO_LIGHTS);

export function useLights(): LightsApi {
  return useContext(LightsContext);
}
