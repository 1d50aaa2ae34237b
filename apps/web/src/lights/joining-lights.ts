import { isMomentary, type EffectFlag } from '@flaglight/core';
import type { DrivenProvider } from './lights-context';
import type { ProviderStores } from './provider-states';

/**
 * The race flag this tab's lights show, as the live connection plays it: a flag counts from the
 * moment it starts on the lights (after the broadcast delay), a fastest lap never (it is momentary).
 * Forgotten when the connection ends, so a light ticked with no race followed stays as it is.
 */
export function createRaceLook(now: () => number = Date.now) {
  let started: { flag: EffectFlag; at: number }[] = [];
  return {
    /** A flag the connection plays now, or at `at` (behind the delay). */
    played(flag: EffectFlag, at = now()): void {
      if (isMomentary(flag)) return;
      started = [...started.filter((entry) => entry.at < at), { flag, at }];
    },
    /** The flag showing now, or null (no race followed, or nothing shown yet). */
    current(): EffectFlag | null {
      const time = now();
      let showing: EffectFlag | null = null;
      for (const entry of started) if (entry.at <= time) showing = entry.flag;
      return showing;
    },
    forget(): void {
      started = [];
    },
  };
}

export type RaceLook = ReturnType<typeof createRaceLook>;

const PROVIDERS = ['lifx', 'hue', 'govee'] as const satisfies readonly DrivenProvider[];

/**
 * Calls `joined` with the lights newly ticked in each provider (by the fan, or by a choice synced
 * from another browser), so they can take up the race flag at once instead of staying dark until
 * the next change.
 */
export function watchJoiningLights(
  providers: ProviderStores,
  joined: (provider: DrivenProvider, ids: string[]) => void,
): () => void {
  const seen = new Map(PROVIDERS.map((p) => [p, new Set(providers[p].getSnapshot().selectedIds)]));
  const offs = PROVIDERS.map((provider) =>
    providers[provider].subscribe(() => {
      const before = seen.get(provider) ?? new Set<string>();
      const now = new Set(providers[provider].getSnapshot().selectedIds);
      seen.set(provider, now);
      const added = [...now].filter((id) => !before.has(id));
      if (added.length > 0) joined(provider, added);
    }),
  );
  return () => offs.forEach((off) => off());
}
