import {
  deriveFlagTimeline,
  deriveRaceControlTimelineChanges,
  FlagTimelineSchema,
  type ReplayChoice,
} from '@flaglight/core';
import { loadBundledSessions } from '@flaglight/data';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { MAIL_TIMELINE_COLORS } from '../src/tracking/timeline-mail.js';
import { verifyEmailByMail } from './account-helpers.js';
import { buildTestApp, type TestApp } from './helper.js';
import { signUp } from './live-helpers.js';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await buildTestApp();
  token = await signUp(t, 'timeline@example.com');
  // Post-race e-mails go to confirmed addresses only.
  await verifyEmailByMail(t, 'timeline@example.com', token);
});
afterAll(() => t.close());

describe('the replay list', () => {
  test('carries the flag timeline of every bundled recording, on the replay clock', async () => {
    const res = await t.app.inject({ url: '/api/replays' });
    expect(res.statusCode).toBe(200);
    const sessions = res.json().sessions as ReplayChoice[];
    const recordings = loadBundledSessions();
    expect(sessions).toHaveLength(recordings.length);
    for (const recording of recordings) {
      const choice = sessions.find((s) => s.id === recording.id);
      const timeline = FlagTimelineSchema.parse(choice?.timeline);
      const first = Math.min(...recording.messages.map((m) => Date.parse(m.date)));
      expect(timeline, recording.id).toEqual(
        deriveFlagTimeline(deriveRaceControlTimelineChanges(recording.messages), {
          start: first,
          end: first + recording.lengthMs,
        }),
      );
      expect(timeline.lengthMs).toBe(recording.lengthMs);
    }
  });
});

describe('the post-race e-mail', () => {
  test(
    "shows the followed session's flags as a coloured table, and as text",
    { timeout: paced(20_000) },
    async () => {
      const t0 = Date.parse('2025-07-06T14:00:00Z');
      const at = (s: number) => new Date(t0 + s * 1000).toISOString();
      const sessionKey = t.context.live.hub.startReplay({
        messages: [
          { date: at(0), category: 'Flag', flag: 'GREEN', scope: 'Track', message: 'GREEN LIGHT' },
          { date: at(60), category: 'SafetyCar', message: 'SAFETY CAR DEPLOYED' },
          { date: at(120), category: 'Flag', flag: 'CLEAR', scope: 'Track', message: 'TRACK CLEAR' },
          { date: at(180), category: 'Flag', flag: 'CHEQUERED', scope: 'Track', message: 'CHEQUERED FLAG' },
        ],
        // Faster than a user may ask for: the test needs the four changes, not the wait.
        speed: 200,
        positionMs: 0,
        info: {
          source: 'bundled',
          id: 'british-2025-race',
          meetingName: 'British Grand Prix',
          sessionName: 'Race',
          year: 2025,
          speed: 200,
          startMinutes: 0,
        },
      });
      await vi.waitFor(
        () => expect(t.context.live.hub.flagHistory(sessionKey).length).toBeGreaterThanOrEqual(3),
        {
          timeout: paced(15_000),
          interval: 100,
        },
      );
      const headers = { authorization: `Bearer ${token}` };
      const tracked = await t.app.inject({
        method: 'POST',
        url: '/api/sessions/track',
        headers,
        payload: {
          sessionData: { session_key: sessionKey, race_name: 'Chinese Grand Prix', date_start: at(0) },
        },
      });
      const { sessionId } = tracked.json();
      await t.app.inject({ method: 'POST', url: '/api/sessions/end', headers, payload: { sessionId } });
      const mail = await vi.waitFor(() => {
        const found = t.context
          .sims!.mail.control.messagesTo('timeline@example.com')
          .find((m) => m.subject.startsWith('Chequered flag'));
        if (!found) throw new Error('no post-race mail yet');
        return found;
      });
      // Named from the replay the server runs, never from the client's sessionData.
      expect(mail.subject).toBe('Chequered flag: 2025 British Grand Prix – Race (replay)');
      expect(mail.html).toMatch(/<table[^>]*><tr><td width="[\d.]+%" bgcolor="#/);
      expect(mail.html).toContain(`bgcolor="${MAIL_TIMELINE_COLORS.safety_car}"`);
      expect(mail.html).toContain('Safety car 1:00–2:00');
      expect(mail.text).toContain('The session in one picture:\n- Green 0:00–1:00\n- Safety car 1:00–2:00');
    },
  );
});
