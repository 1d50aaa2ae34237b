import { LightFollowSchema } from '@flaglight/contract/light-follow';
import { DEFAULT_LIGHT_FOLLOW, type LightFollowSettings } from '@flaglight/core';
import { useCallback, useMemo, useState } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useLocalSettings } from '../local-settings';

export interface LightFollowEditor {
  follow: LightFollowSettings;
  /** What the contract refuses, by field (`afterGreen.afterSeconds`), in its words. */
  errors: Readonly<Record<string, string>>;
  change: (patch: Partial<LightFollowSettings>) => void;
}

/**
 * The fan's follow settings (which sessions, after green, at the session's end). A change the
 * contract takes is written to the browser's record and saved with the account; one it refuses (an
 * hold of 2 s) stays on screen with its error and is never sent.
 */
export function useLightFollow(): LightFollowEditor {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const [draft, setDraft] = useState<LightFollowSettings | null>(null);
  const follow = draft ?? settings.lightFollow ?? DEFAULT_LIGHT_FOLLOW;
  const errors = useMemo(() => {
    if (!draft) return {};
    const parsed = LightFollowSchema.safeParse(draft);
    if (parsed.success) return {};
    const found: Record<string, string> = {};
    for (const issue of parsed.error.issues) found[issue.path.map(String).join('.')] ??= issue.message;
    return found;
  }, [draft]);

  const change = useCallback(
    (patch: Partial<LightFollowSettings>) => {
      const next = { ...follow, ...patch };
      const parsed = LightFollowSchema.safeParse(next);
      if (!parsed.success) return setDraft(next);
      setDraft(null);
      update({ lightFollow: parsed.data });
    },
    [follow, update],
  );
  return { follow, errors, change };
}
