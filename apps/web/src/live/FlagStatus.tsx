import { useNow } from '../ui/use-now';
import { describeSectors, flagLabel, flagSwatch } from './display-flag';
import type { LiveConnectionState } from './use-live-connection';

const clock = (ms: number) =>
  new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(ms);

/** The flag on the panel: it changes when the lights do (after the delay), so it matches the TV. */
export function FlagStatus({ state }: { state: LiveConnectionState }) {
  const { shown, momentary, pending, status } = state;
  const next = pending[0] ?? null;
  const now = useNow(next !== null);
  const sectors = describeSectors(shown.activeSectors);
  const live = status !== 'disconnected';
  return (
    <div className="flex flex-col gap-3">
      <div
        role="status"
        aria-label="Current flag"
        className="flex items-center gap-4 rounded-control border border-ink-600 bg-ink-900 p-4"
      >
        <span
          aria-hidden="true"
          className={`size-14 shrink-0 rounded-full ${flagSwatch(shown.flag)} ${live ? 'shadow-[0_0_24px_4px_var(--color-accent)]' : 'opacity-60'}`}
        />
        <div className="flex min-w-0 flex-col gap-0.5">
          <span
            className="font-display text-3xl font-bold tracking-tight uppercase italic"
            data-flag={shown.flag}
          >
            {flagLabel(shown.flag)}
          </span>
          {sectors && <span className="font-semibold">{sectors}</span>}
          {shown.cause?.message ? (
            <span className="break-words text-ink-300">{shown.cause.message}</span>
          ) : (
            <span className="text-ink-300">
              {live ? 'Waiting for race control…' : 'Not following a session'}
            </span>
          )}
          {momentary && (
            <span className="mt-1 inline-flex w-fit items-center gap-2 rounded-full bg-flag-fastest-lap px-3 py-0.5 text-caption font-bold text-on-accent">
              {flagLabel(momentary.flag)}
              {momentary.cause?.message ? ` · ${momentary.cause.message}` : ''}
            </span>
          )}
        </div>
      </div>
      {next && (
        <p className="text-ink-300" data-testid="pending-flag">
          Next: <strong className="text-ink-100">{flagLabel(next.flag)}</strong> in{' '}
          <span className="tabular-nums">{Math.max(0, Math.ceil((next.at - now) / 1000))} s</span> (broadcast
          delay)
        </p>
      )}
    </div>
  );
}

/** Recent changes, newest first. */
export function FlagHistory({ state }: { state: LiveConnectionState }) {
  if (state.history.length === 0) return null;
  return (
    <details open className="rounded-control border border-ink-600 p-3">
      <summary className="min-h-11 cursor-pointer py-2 font-semibold">
        Recent flags ({state.history.length})
      </summary>
      <ol aria-label="Recent flags" className="mt-2 flex flex-col gap-1">
        {state.history.map((entry, i) => (
          <li key={`${entry.at}-${i}`} className="flex flex-wrap gap-x-3 text-ink-300">
            <span className="font-mono tabular-nums">{clock(entry.at)}</span>
            <span className="font-semibold text-ink-100">{flagLabel(entry.flag)}</span>
            {entry.cause?.message && <span>{entry.cause.message}</span>}
          </li>
        ))}
      </ol>
    </details>
  );
}
