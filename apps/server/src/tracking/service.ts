import { TrackedSessionDataSchema as sessionDataSchema } from '@flaglight/contract';
import type { FlagEvent, User } from '@flaglight/core';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';
import type { FindKnownSession } from './known-session.js';
import { createTrackedSessionsRepository, type TrackedSessionRow } from './repository.js';
import { renderTimelineHtml, renderTimelineText, timelineFromEvents } from './timeline-mail.js';

type SessionData = z.infer<typeof sessionDataSchema>;

export interface TrackingServiceDeps {
  db: Db;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  publicUrl: string;
  /** The session the server knows under a key (a running replay, or the live one), or null. */
  findKnownSession: FindKnownSession;
  /** The flag events this instance kept of a session (the live hub's), for the e-mail's timeline. */
  flagHistory?: (sessionKey: number) => readonly FlagEvent[];
}

/**
 * SPEC §7 session tracking: the post-race e-mail goes out once per account and session, only to a
 * confirmed address, and says only what the server knows of the session (its name and flags);
 * `sessionData` is kept as the client sent it but never mailed.
 */
export function createTrackingService(deps: TrackingServiceDeps) {
  const trackedSessions = createTrackedSessionsRepository(deps.db);

  /** The followed session's flags from its start to now, when this instance kept its events. */
  function sessionTimeline(row: TrackedSessionRow, now: number) {
    const data = sessionDataSchema.safeParse(JSON.parse(row.session_data));
    if (!deps.flagHistory || !data.success) return null;
    // The key was checked against the server's own sessions when tracking started (session_ref).
    const key = Number(data.data.session_key);
    if (!Number.isSafeInteger(key)) return null;
    // A live session starts when the server says; a replay, which has no start of its own here, when
    // the client says, as a time only (timelineFromEvents never starts after the first flag).
    const startText = row.session_start ?? data.data.date_start;
    const start = startText ? Date.parse(startText) : Number.NaN;
    return timelineFromEvents(deps.flagHistory(key), { start: Number.isFinite(start) ? start : null, now });
  }

  function sendPostRaceMail(user: User, row: TrackedSessionRow, now: Date): void {
    const title = row.session_title ?? 'the session';
    const timeline = sessionTimeline(row, now.getTime());
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

  return {
    /** Starts tracking a session for the user; returns its id. */
    async track(user: User, sessionData: SessionData): Promise<string> {
      // The contract bounds its depth and size (MAX_SESSION_DATA_DEPTH, MAX_SESSION_DATA_CHARS).
      const data = JSON.stringify(sessionData);
      const known = await deps.findKnownSession(Number(sessionData.session_key));
      return trackedSessions.insert({ userId: String(user.id), sessionData: data, known, now: deps.now() });
    },

    /** Ends a tracked session; `emailSent` is true for the one call that sent the post-race e-mail. */
    async end(user: User, sessionId: string): Promise<{ emailSent: boolean }> {
      const now = deps.now();
      const row = await trackedSessions.findForUser(sessionId, String(user.id));
      if (!row) throw notFound('Tracked session not found');
      await trackedSessions.markEnded(row.id, now);
      // No mail to an address nobody has proved (anyone can sign up with anyone's), and none about
      // a session the server could not vouch for when tracking started.
      if (user.emailVerified !== true || row.session_ref === null) return { emailSent: false };
      // Claimed per account and session first, so the e-mail goes out once however often it ends.
      const emailSent = await trackedSessions.claimEmail({ ...row, session_ref: row.session_ref }, now);
      if (emailSent) sendPostRaceMail(user, row, now);
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
