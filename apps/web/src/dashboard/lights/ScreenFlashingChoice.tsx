import { useId } from 'react';
import { useAuth } from '../../auth/auth-context';
import { useLocalSettings } from '../../settings/local-settings';

/**
 * Shown while the system asks for reduced motion: the on-screen light then never flashes (strobes
 * and fast pulses play as steady looks), unless the fan lets this screen flash. The choice is this
 * browser's own (decision 046); the real lights follow the account's "No flashing" only.
 */
export function ScreenFlashingChoice() {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const id = useId();
  const helpId = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="flex min-h-11 cursor-pointer items-center gap-3">
        <input
          id={id}
          type="checkbox"
          className="size-5 accent-accent"
          aria-describedby={helpId}
          checked={settings.screenFlashing}
          onChange={(event) => update({ screenFlashing: event.target.checked })}
        />
        <span className="font-semibold">Let this screen flash</span>
      </label>
      <p id={helpId} className="text-caption text-ink-300">
        {settings.screenFlashing
          ? 'This screen flashes as your looks say, although your system asks for reduced motion.'
          : 'Your system asks for reduced motion, so this screen shows every flag without flashing.'}
      </p>
    </div>
  );
}
