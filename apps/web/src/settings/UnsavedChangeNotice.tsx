import { CloudOff, RotateCw } from 'lucide-react';
import { useAuth } from '../auth/auth-context';
import { buttonClass } from '../ui/button-styles';
import { SAVE_TEXTS, useUnsavedPreferences, type PreferencesArea } from './preferences-save-state';
import { retryPreferencesSave } from './preferences-sync';

/**
 * Beside a change the account has not taken (a light ticked, the delay moved, auto-connect switched):
 * what was not saved, why in plain words, that it is kept, and Retry. Nothing while all is saved.
 */
export function UnsavedChangeNotice({ area }: { area: PreferencesArea }) {
  const { user } = useAuth();
  const unsaved = useUnsavedPreferences(user?.email);
  if (!unsaved?.areas.includes(area)) return null;
  return (
    <div
      role="alert"
      className="flex flex-col gap-3 rounded-control border border-danger/50 bg-danger/10 px-4 py-3 sm:flex-row sm:items-start sm:justify-between"
    >
      <div className="flex min-w-0 flex-1 gap-2">
        <CloudOff aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-danger" />
        <div className="flex min-w-0 flex-col gap-1">
          <p className="font-semibold text-ink-100">{SAVE_TEXTS.title[area]}</p>
          <p className="text-caption text-ink-100 [overflow-wrap:anywhere]">
            {unsaved.reason} {SAVE_TEXTS.kept}
          </p>
        </div>
      </div>
      <button
        type="button"
        className={buttonClass('secondary', 'sm', 'self-start')}
        disabled={unsaved.retrying}
        onClick={() => retryPreferencesSave(user?.email)}
      >
        <RotateCw
          aria-hidden="true"
          className={`size-4 ${unsaved.retrying ? 'motion-safe:animate-spin' : ''}`}
        />
        {unsaved.retrying ? SAVE_TEXTS.retrying : SAVE_TEXTS.retry}
      </button>
    </div>
  );
}
