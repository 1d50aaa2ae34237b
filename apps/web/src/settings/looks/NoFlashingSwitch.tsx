import * as Switch from '@radix-ui/react-switch';
import { useId } from 'react';
import { Link } from 'react-router';
import { LOOKS_SECTION_PATH } from '../settings-paths';
import { LOOKS_TEXTS as T } from './looks-texts';
import { useNoFlashing } from './use-no-flashing';

const ROOT_CLASS =
  'relative inline-flex h-11 w-[4.5rem] shrink-0 items-center rounded-full border border-ink-600 bg-ink-700 transition-colors ' +
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent ' +
  'data-[state=checked]:border-accent data-[state=checked]:bg-accent';
const THUMB_CLASS =
  'block size-9 translate-x-1 rounded-full bg-ink-100 shadow transition-transform motion-reduce:transition-none ' +
  'data-[state=checked]:translate-x-[1.875rem] data-[state=checked]:bg-on-accent';

/** The "No flashing" switch with what it does; the same words wherever it is offered. */
export function NoFlashingSwitch({
  checked,
  onCheckedChange,
}: {
  checked: boolean;
  onCheckedChange: (on: boolean) => void;
}) {
  const ids = { toggle: useId(), help: useId() };
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="flex min-w-0 flex-col gap-1">
        <label htmlFor={ids.toggle} className="font-semibold text-ink-100">
          {T.noFlashing}
        </label>
        <p id={ids.help} className="text-caption text-ink-300">
          {T.noFlashingHelp}
        </p>
      </div>
      <Switch.Root
        id={ids.toggle}
        aria-describedby={ids.help}
        checked={checked}
        onCheckedChange={onCheckedChange}
        className={ROOT_CLASS}
      >
        <Switch.Thumb className={THUMB_CLASS} />
      </Switch.Root>
    </div>
  );
}

/** "No flashing" on its own, kept in the account's looks: for the dashboard and first connection. */
export function NoFlashingChoice() {
  const [noFlashing, setNoFlashing] = useNoFlashing();
  return <NoFlashingSwitch checked={noFlashing} onCheckedChange={setNoFlashing} />;
}

/**
 * Beside a brand just connected (its lights are about to show their first flag): No flashing, and
 * the way to every other choice of how the flags look.
 */
export function FirstLightsChoice() {
  return (
    <div className="flex flex-col gap-2 rounded-control border border-ink-600 bg-ink-900/40 p-4">
      <NoFlashingChoice />
      <Link to={LOOKS_SECTION_PATH} className="self-start text-accent underline underline-offset-2">
        {T.moreLooks}
      </Link>
    </div>
  );
}
