import { useQuery } from '@tanstack/react-query';
import { AlertTriangle, Antenna } from 'lucide-react';
import { fetchLiveSources, type LiveSourceView } from './live-api';

/** How often Race Control asks which source drives the lights (failover takes up to 10 s). */
export const FEED_HEALTH_REFRESH_MS = 15_000;

const NAMES: Record<LiveSourceView['name'], string> = {
  'f1-live-timing': 'F1 live timing',
  openf1: 'OpenF1',
};

/** One line on what drives the lights: the active source, or the warning that none answers. */
export function feedHealthText(sources: readonly LiveSourceView[]): { text: string; warning: boolean } {
  const active = sources.find((s) => s.state === 'active');
  const down = sources.filter((s) => s.state === 'down');
  if (!active) {
    return {
      text: 'No live source is answering: the lights keep the last flag until one is back.',
      warning: true,
    };
  }
  const standby = sources.filter((s) => s.state === 'standby').map((s) => NAMES[s.name]);
  if (down.length > 0) {
    return {
      text: `Flags from ${NAMES[active.name]} · ${down.map((s) => NAMES[s.name]).join(' and ')} is down`,
      warning: true,
    };
  }
  return {
    text: `Flags from ${NAMES[active.name]}${standby.length > 0 ? ` · ${standby.join(' and ')} standing by` : ''}`,
    warning: false,
  };
}

/** Race Control's feed-health line (which live source drives the lights), shown while a session is live or followed. */
export function FeedHealth() {
  const sources = useQuery({
    queryKey: ['live', 'sources'],
    queryFn: ({ signal }) => fetchLiveSources(signal),
    refetchInterval: FEED_HEALTH_REFRESH_MS,
  });
  if (!sources.data) return null;
  const { text, warning } = feedHealthText(sources.data);
  return (
    <p
      role="status"
      aria-label="Live source"
      className={`flex items-center gap-2 text-caption ${warning ? 'text-flag-yellow' : 'text-ink-300'}`}
    >
      {warning ? (
        <AlertTriangle aria-hidden="true" className="size-4 shrink-0" />
      ) : (
        <Antenna aria-hidden="true" className="size-4 shrink-0" />
      )}
      {text}
    </p>
  );
}
