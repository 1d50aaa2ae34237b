import type { LocalSettings } from '@flaglight/core';
import type { LocalSettingsPatch } from '../settings/local-settings';
import { buttonClass } from '../ui/button-styles';
import { COMPANION_TEXTS as T } from './companion-texts';

/**
 * Asked when an online companion can drive some of the selected cloud lights too: one of the two
 * drives them. Until the user answers, the companion does (the account's default).
 */
export function SharedLightsPrompt({
  count,
  driver,
  update,
}: {
  count: number;
  driver: LocalSettings['sharedLightsDriver'];
  update: (patch: LocalSettingsPatch) => void;
}) {
  if (count === 0) return null;
  const choice = (value: LocalSettings['sharedLightsDriver'], label: string) => (
    <button
      type="button"
      aria-pressed={driver === value}
      className={buttonClass(driver === value ? 'primary' : 'secondary', 'sm')}
      onClick={() => update({ sharedLightsDriver: value })}
    >
      {label}
    </button>
  );
  return (
    <div
      role="group"
      aria-label="Who drives shared lights"
      className="flex flex-col gap-2 rounded-control border border-accent/40 p-3"
    >
      <p>{T.sharedQuestion(count)}</p>
      <div className="flex flex-wrap gap-2">
        {choice('companion', T.driverCompanion)}
        {choice('browser', T.driverBrowser)}
      </div>
    </div>
  );
}
