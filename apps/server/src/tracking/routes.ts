import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { AuthService } from '../auth/service.js';
import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import type { Mailer } from '../mail/mailer.js';

const sessionDataSchema = z
  .object({
    session_key: z.union([z.string().max(50), z.number()]).optional(),
    session_name: z.string().max(200).optional(),
    race_name: z.string().max(200).optional(),
    circuit_name: z.string().max(200).optional(),
    date_start: z.string().max(50).optional(),
    date_end: z.string().max(50).optional(),
  })
  .loose();

/** SPEC §7 session tracking: the post-race e-mail goes out once per tracked session. */
export async function trackingRoutes(
  fastify: FastifyInstance,
  opts: { auth: AuthService; db: Db; mailer: Mailer; logger: Logger; now: () => Date; publicUrl: string },
) {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = opts;

  app.post(
    '/api/sessions/track',
    { schema: { body: z.object({ sessionData: sessionDataSchema }) } },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const data = JSON.stringify(request.body.sessionData);
      if (data.length > 8192) throw Object.assign(new Error('sessionData is too large'), { statusCode: 413 });
      const id = crypto.randomUUID();
      await db
        .insertInto('tracked_sessions')
        .values({
          id,
          user_id: String(user.id),
          session_data: data,
          started_at: opts.now().toISOString(),
          ended_at: null,
          email_sent_at: null,
        })
        .execute();
      return { success: true, sessionId: id };
    },
  );

  app.post(
    '/api/sessions/end',
    { schema: { body: z.object({ sessionId: z.string().max(100) }) } },
    async (request) => {
      const { user } = await opts.auth.authenticate(request.headers.authorization);
      const now = opts.now().toISOString();
      const row = await db
        .selectFrom('tracked_sessions')
        .selectAll()
        .where('id', '=', request.body.sessionId)
        .where('user_id', '=', String(user.id))
        .executeTakeFirst();
      if (!row) throw notFound('Tracked session not found');
      await db
        .updateTable('tracked_sessions')
        .set({ ended_at: now })
        .where('id', '=', row.id)
        .where('ended_at', 'is', null)
        .execute();
      // Claiming email_sent_at first makes the e-mail go out once, however often the end is reported.
      const claimed = await db
        .updateTable('tracked_sessions')
        .set({ email_sent_at: now })
        .where('id', '=', row.id)
        .where('email_sent_at', 'is', null)
        .executeTakeFirst();
      const emailSent = Number(claimed.numUpdatedRows) === 1;
      if (emailSent) {
        const data = sessionDataSchema.safeParse(JSON.parse(row.session_data));
        const name = data.success
          ? [data.data.race_name, data.data.session_name].filter(Boolean).join(' – ')
          : '';
        const title = name || 'the session';
        opts.mailer
          .send({
            to: user.email,
            subject: `Chequered flag: ${title}`,
            text: `That's the chequered flag for ${title}. Thanks for racing with Flaglight!\n\nYour lights are back to normal. See you at the next session: ${opts.publicUrl}/#/dashboard`,
            html: `<p>That's the chequered flag for <strong>${escapeHtml(title)}</strong>. Thanks for racing with Flaglight!</p><p>Your lights are back to normal. <a href="${opts.publicUrl}/#/dashboard">See you at the next session</a>.</p>`,
          })
          .catch((error: unknown) => opts.logger.error({ err: error }, 'post-race e-mail failed'));
      }
      return { success: true, emailSent };
    },
  );
}

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}
