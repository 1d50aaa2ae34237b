import { TrackedSessionDataSchema as sessionDataSchema } from '@flaglight/contract';
import type { FlagEvent, User } from '@flaglight/core';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import { createTrackedSessionsRepository } from './repository.js';
import { renderTimelineHtml, renderTimelineText, timelineFromEvents } from './timeline-mail.js';

type SessionData = z.infer<typeof sessionDataSchema>;

export interface TrackingServiceDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  publicUrl: string;
  /** The flag events this instance kept of a session (the live hub's), for the e-mail's timeline. */
  flagHistory?: (sessionKey: number) => readonly FlagEvent[];
}

/** SPEC §7 session tracking: the post-race e-mail goes out once per tracked session. */
export function createTrackingService(deps: TrackingServiceDeps) {
  const trackedSessions = createTrackedSessionsRepository(deps.db);

  /** The followed session's flags from its start to now, when this instance kept its events. */
  function sessionTimeline(data: SessionData, now: number) {
    const key = Number(data.session_key);
    if (!deps.flagHistory || !Number.isSafeInteger(key)) return null;
    const start = data.date_start ? Date.parse(data.date_start) : Number.NaN;
    return timelineFromEvents(deps.flagHistory(key), { start: Number.isFinite(start) ? start : null, now });
  }

  return {
    /** Starts tracking a session for the user; returns its id. */
    async track(user: User, sessionData: SessionData): Promise<string> {
      // The contract bounds its depth and size (MAX_SESSION_DATA_DEPTH, MAX_SESSION_DATA_CHARS).
      const data = JSON.stringify(sessionData);
      return trackedSessions.insert({ userId: String(user.id), sessionData: data, now: deps.now() });
    },

    /** Ends a tracked session; `emailSent` is true for the one call that sent the post-race e-mail. */
    async end(user: User, sessionId: string): Promise<{ emailSent: boolean }> {
      const now = deps.now();
      const row = await trackedSessions.findForUser(sessionId, String(user.id));
      if (!row) throw notFound('Tracked session not found');
      await trackedSessions.markEnded(row.id, now);
      // Claiming email_sent_at first makes the e-mail go out once, however often the end is reported.
      const emailSent = await trackedSessions.claimEmail(row.id, now);
      if (emailSent) {
        const data = sessionDataSchema.safeParse(JSON.parse(row.session_data));
        const name = data.success
          ? [data.data.race_name, data.data.session_name].filter(Boolean).join(' – ')
          : '';
        const title = name || 'the session';
        const timeline = data.success ? sessionTimeline(data.data, now.getTime()) : null;
        deps.mailer
          .send({
            to: user.email,
            subject: `Chequered flag: ${title}`,
            text:
              `That's the chequered flag for ${title}. Thanks for racing with Flaglight!\n\n` +
              (timeline ? `${renderTimelineText(timeline)}\n\n` : '') +
              `Your lights are back to normal. See you at the next session: ${deps.publicUrl}/#/dashboard`,
            html:
              `<p>That's the chequered flag for <strong>${escapeHtml(title)}</strong>. Thanks for racing with Flaglight!</p>` +
              (timeline ? renderTimelineHtml(timeline) : '') +
              `<p>Your lights are back to normal. <a href="${deps.publicUrl}/#/dashboard">See you at the next session</a>.</p>`,
          })
          .catch((error: unknown) => deps.logger.error({ err: error }, 'post-race e-mail failed'));
      }
      return { emailSent };
    },
  };
}

export type TrackingService = ReturnType<typeof createTrackingService>;

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
