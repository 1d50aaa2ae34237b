// `GET /api/live/sources`: each live source and how it is doing, in words fit for the public.
import type { F1FeedHealth } from './f1-feed.js';
import type { Channel, LiveSourceView } from './hub-types.js';
import type { LookupHealth } from './live-session-lookup.js';

/** A source's `error` in a public answer: one line, at most this long (the words are the server's own). */
export const SOURCE_ERROR_MAX_CHARS = 200;

function publicSourceError(text: string): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return line.length > SOURCE_ERROR_MAX_CHARS ? `${line.slice(0, SOURCE_ERROR_MAX_CHARS - 1)}…` : line;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Each configured live source: F1 live timing leads while healthy, OpenF1 stands by. */
export function describeSources(
  f1: F1FeedHealth | undefined,
  channels: readonly Channel[],
  lookupHealth: LookupHealth,
): LiveSourceView[] {
  const views: LiveSourceView[] = [];
  if (f1) {
    views.push({
      name: 'f1-live-timing',
      state: f1.healthy ? 'active' : 'down',
      lastMessageAt: iso(f1.lastMessageAt),
      ...(f1.error ? { error: publicSourceError(f1.error) } : {}),
    });
  }
  const openf1 = openF1Health(channels, lookupHealth);
  views.push({
    name: 'openf1',
    state: !openf1.healthy ? 'down' : f1?.healthy ? 'standby' : 'active',
    lastMessageAt: iso(openf1.lastMessageAt),
    ...(!openf1.healthy && openf1.error ? { error: publicSourceError(openf1.error) } : {}),
  });
  return views;
}

/** OpenF1's health as the live followers see it; the last sessions lookup when none has a word. */
function openF1Health(channels: readonly Channel[], lookupHealth: LookupHealth): LookupHealth {
  const seen = channels
    .map((c) => (c.kind === 'live' ? c.follower?.openf1?.() : undefined))
    .filter((h): h is NonNullable<typeof h> => h !== undefined && h.healthy !== null);
  if (seen.length === 0) return lookupHealth;
  return {
    healthy: seen.some((h) => h.healthy === true),
    lastMessageAt: Math.max(...seen.map((h) => h.lastMessageAt ?? 0)) || null,
    error: seen.find((h) => !h.healthy)?.error ?? null,
  };
}
