import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Db } from '../db/database.js';
import type { PaymentsTable } from '../db/schema.js';

export type PaymentRow = Selectable<PaymentsTable>;

export function createPaymentsRepository(db: Db) {
  return {
    /** Records a checkout the user has just started. */
    async insertOpen(input: {
      userId: string;
      checkoutSessionId: string;
      amountCents: number;
      currency: string;
      now: Date;
    }): Promise<void> {
      const row: PaymentRow = {
        id: crypto.randomUUID(),
        user_id: input.userId,
        checkout_session_id: input.checkoutSessionId,
        amount_cents: input.amountCents,
        currency: input.currency,
        status: 'open',
        created_at: input.now.toISOString(),
        completed_at: null,
      };
      await db.insertInto('payments').values(row).execute();
    },

    async listOpenCheckoutIds(userId: string): Promise<string[]> {
      const rows = await db
        .selectFrom('payments')
        .select('checkout_session_id')
        .where('user_id', '=', userId)
        .where('status', '=', 'open')
        .execute();
      return rows.map((row) => row.checkout_session_id);
    },

    async markExpired(checkoutSessionId: string): Promise<void> {
      await db
        .updateTable('payments')
        .set({ status: 'expired' })
        .where('checkout_session_id', '=', checkoutSessionId)
        .execute();
    },

    /**
     * Marks a checkout paid once, in one transaction with what it buys: a trial user becomes
     * lifetime and the licence is recorded as redeemed. The payment row is claimed with a
     * conditional update, so callers racing each other claim it once. A checkout with no row (its
     * write was lost) is recorded first for `fallbackUserId`. `userId` is the payment's owner, if any.
     */
    async claimPaidCheckout(input: {
      checkoutSessionId: string;
      fallbackUserId: string | null;
      amountCents: number;
      currency: string;
      licenceKeyHash: string;
      now: Date;
    }): Promise<{ claimed: boolean; userId?: string }> {
      const now = input.now.toISOString();
      return db.transaction().execute(async (trx) => {
        const existing = await trx
          .selectFrom('payments')
          .selectAll()
          .where('checkout_session_id', '=', input.checkoutSessionId)
          .executeTakeFirst();
        const row: PaymentRow = existing ?? {
          id: crypto.randomUUID(),
          user_id: input.fallbackUserId,
          checkout_session_id: input.checkoutSessionId,
          amount_cents: input.amountCents,
          currency: input.currency,
          status: 'open',
          created_at: now,
          completed_at: null,
        };
        if (!row.user_id) return { claimed: false };
        if (!existing) {
          // A webhook for a checkout this server did not record (its row write was lost).
          await trx
            .insertInto('payments')
            .values(row)
            .onConflict((oc) => oc.column('checkout_session_id').doNothing())
            .execute();
        }
        const claimed = await trx
          .updateTable('payments')
          .set({ status: 'paid', completed_at: now })
          .where('checkout_session_id', '=', input.checkoutSessionId)
          .where('status', '<>', 'paid')
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return { claimed: false, userId: row.user_id };
        await trx
          .updateTable('users')
          .set({ plan: 'lifetime' })
          .where('id', '=', row.user_id)
          .where('plan', '=', 'trial')
          .execute();
        await trx
          .insertInto('licences')
          .values({
            key_hash: input.licenceKeyHash,
            plan: 'lifetime',
            source: 'payment',
            payment_id: row.id,
            created_at: now,
            redeemed_by: row.user_id,
            redeemed_at: now,
          })
          .execute();
        return { claimed: true, userId: row.user_id };
      });
    },

    /** The user's most recent completed payment. */
    async findLatestPaid(
      userId: string,
    ): Promise<Pick<PaymentRow, 'completed_at' | 'currency' | 'amount_cents'> | undefined> {
      return db
        .selectFrom('payments')
        .select(['completed_at', 'currency', 'amount_cents'])
        .where('user_id', '=', userId)
        .where('status', '=', 'paid')
        .orderBy('completed_at', 'desc')
        .executeTakeFirst();
    },

    /** Sum of every completed payment, in cents. */
    async sumPaidCents(): Promise<number> {
      const row = await db
        .selectFrom('payments')
        .select(db.fn.sum<number | string | null>('amount_cents').as('cents'))
        .where('status', '=', 'paid')
        .executeTakeFirst();
      return Number(row?.cents ?? 0);
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
