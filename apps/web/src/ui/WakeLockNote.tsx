import { MonitorCheck } from 'lucide-react';

/** Says that the screen is held awake; shown while useWakeLock holds the lock. */
export function WakeLockNote({ held }: { held: boolean }) {
  if (!held) return null;
  return (
    <p role="status" className="inline-flex items-center gap-2 text-caption text-ink-300">
      <MonitorCheck aria-hidden="true" className="size-4 text-accent" />
      Screen kept awake while connected
    </p>
  );
}
