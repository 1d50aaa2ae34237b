import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';
import { useAuth } from '../auth/auth-context';
import { useLocalSettings } from './local-settings';
import { UnsavedChangeNotice } from './UnsavedChangeNotice';

/** SPEC §2 Settings 3, App Preferences; auto-connect is kept per user (DESIGN §6). */
export function PreferencesSection() {
  const { user } = useAuth();
  const [settings, update] = useLocalSettings(user?.email);
  const ids = { toggle: useId(), help: useId() };
  return (
    <div className="flex flex-col gap-3">
      <div className="flex items-start justify-between gap-4">
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor={ids.toggle} className="font-semibold text-ink-100">
            Auto-connect on startup
          </label>
          <p id={ids.help} className="text-ink-300">
            Reconnects your saved lights when Flaglight opens, and follows the race automatically when a
            session goes live while the dashboard is open.
          </p>
        </div>
        <Switch.Root
          id={ids.toggle}
          aria-describedby={ids.help}
          checked={settings.autoConnect}
          onCheckedChange={(checked) => update({ autoConnect: checked })}
          className="relative inline-flex h-11 w-[4.5rem] shrink-0 items-center rounded-full border border-ink-600 bg-ink-700 transition-colors data-[state=checked]:border-accent data-[state=checked]:bg-accent"
        >
          <Switch.Thumb className="block size-9 translate-x-1 rounded-full bg-ink-100 shadow transition-transform data-[state=checked]:translate-x-[1.875rem] data-[state=checked]:bg-on-accent" />
        </Switch.Root>
      </div>
      <UnsavedChangeNotice area="autoConnect" />
    </div>
  );
}
