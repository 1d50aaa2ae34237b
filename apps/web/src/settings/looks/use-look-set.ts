import { DEFAULT_LOOK_SET, type EffectFlag, type FlagLook, type LookSet } from '@flaglight/core';
import { useCallback, useMemo, useState } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useLocalSettings } from '../local-settings';
import { checkLookSet, type LookErrors } from './look-draft';

export interface LookSetEditor {
  /** What the section shows: the saved look set, or the fan's edit while the contract refuses it. */
  looks: LookSet;
  /** The fields the contract refuses, by field key; empty while the shown set is saved. */
  errors: LookErrors;
  /** True when the shown look set is exactly what the lights play (and the account keeps). */
  saved: boolean;
  /** Replaces the whole set (a preset, an import). */
  setLooks: (next: LookSet) => void;
  setFlag: (flag: EffectFlag, look: FlagLook) => void;
  setNoFlashing: (on: boolean) => void;
  setBrightnessCap: (percent: number) => void;
}

/**
 * The signed-in fan's look set for the Flags & effects section. A change the contract takes is
 * written to the browser's record at once (the preferences sync saves it with the account and the
 * lights play it from the next flag); one it refuses stays in the section with its errors and is
 * never sent.
 */
export function useLookSet(): LookSetEditor {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const stored = settings.looks ?? DEFAULT_LOOK_SET;
  // Null while the section shows what is stored; an edit the contract refuses is held here.
  const [draft, setDraft] = useState<LookSet | null>(null);
  const looks = draft ?? stored;
  const errors = useMemo(() => {
    if (!draft) return {};
    const check = checkLookSet(draft);
    return check.ok ? {} : check.errors;
  }, [draft]);

  const setLooks = useCallback(
    (next: LookSet) => {
      const check = checkLookSet(next);
      if (!check.ok) return setDraft(next);
      setDraft(null);
      update({ looks: check.looks });
    },
    [update],
  );

  return {
    looks,
    errors,
    saved: draft === null,
    setLooks,
    setFlag: (flag, look) => setLooks({ ...looks, flags: { ...looks.flags, [flag]: look } }),
    setNoFlashing: (noFlashing) => setLooks({ ...looks, noFlashing }),
    setBrightnessCap: (brightnessCap) => setLooks({ ...looks, brightnessCap }),
  };
}
