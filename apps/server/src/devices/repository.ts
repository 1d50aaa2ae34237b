import type { Selectable } from 'kysely';
import type { UserRow } from '../auth/repository.js';
import type { Db } from '../db/database.js';
import type { DeviceCodesTable, DevicesTable } from '../db/schema.js';

export type DeviceRow = Selectable<DevicesTable>;
export type DeviceCodeRow = Selectable<DeviceCodesTable>;

export function createDeviceCodesRepository(db: Db) {
  return {
    /** Stores a new request; false when the user code is taken (the caller draws another). */
    async insert(row: DeviceCodeRow): Promise<boolean> {
      const result = await db
        .insertInto('device_codes')
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },

    async findByDeviceCode(hash: string): Promise<DeviceCodeRow | undefined> {
      return db
        .selectFrom('device_codes')
        .selectAll()
        .where('device_code_hash', '=', hash)
        .executeTakeFirst();
    },

    async findByUserCode(userCode: string): Promise<DeviceCodeRow | undefined> {
      return db.selectFrom('device_codes').selectAll().where('user_code', '=', userCode).executeTakeFirst();
    },

    async recordPoll(hash: string, now: Date): Promise<void> {
      await db
        .updateTable('device_codes')
        .set({ last_polled_at: now.toISOString() })
        .where('device_code_hash', '=', hash)
        .execute();
    },

    /** A pending, unexpired request becomes `status`, decided by `userId`; false if it was not pending. */
    async decide(
      userCode: string,
      status: 'approved' | 'denied',
      userId: string,
      now: Date,
    ): Promise<boolean> {
      const result = await db
        .updateTable('device_codes')
        .set({ status, user_id: userId })
        .where('user_code', '=', userCode)
        .where('status', '=', 'pending')
        .where('expires_at', '>', now.toISOString())
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** An approved request is spent and its device stored, at most once (two racing polls: one wins). */
    async redeem(hash: string, device: DeviceRow): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const spent = await trx
          .updateTable('device_codes')
          .set({ status: 'used' })
          .where('device_code_hash', '=', hash)
          .where('status', '=', 'approved')
          .executeTakeFirst();
        if (Number(spent.numUpdatedRows) !== 1) return false;
        await trx.insertInto('devices').values(device).execute();
        return true;
      });
    },

    /** Requests past their time are of no use to anyone; their user codes become free again. */
    async deleteExpired(now: Date): Promise<void> {
      await db.deleteFrom('device_codes').where('expires_at', '<=', now.toISOString()).execute();
    },
  };
}

export function createDevicesRepository(db: Db) {
  return {
    /** A linked (not revoked) device by its token, with its account. */
    async findByToken(tokenHash: string): Promise<{ device: DeviceRow; user: UserRow } | undefined> {
      const device = await db
        .selectFrom('devices')
        .selectAll()
        .where('token_hash', '=', tokenHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (!device) return undefined;
      const user = await db
        .selectFrom('users')
        .selectAll()
        .where('id', '=', device.user_id)
        .executeTakeFirst();
      return user ? { device, user } : undefined;
    },

    async listForUser(userId: string): Promise<DeviceRow[]> {
      return db
        .selectFrom('devices')
        .selectAll()
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .orderBy('created_at', 'desc')
        .execute();
    },

    /**
     * The account's most recent other companion of this name and platform, linked or not: the same
     * computer before a reinstall or a new link, whose room delay the new link takes over.
     */
    async findEarlierTwin(userId: string, device: { id: string; name: string; platform: string }) {
      return db
        .selectFrom('devices')
        .select(['id', 'revoked_at'])
        .where('user_id', '=', userId)
        .where('name', '=', device.name)
        .where('platform', '=', device.platform)
        .where('id', '!=', device.id)
        .orderBy('created_at', 'desc')
        .executeTakeFirst();
    },

    /** Revokes one of the user's linked devices (its lights go too); false when not theirs or not linked. */
    async revoke(id: string, userId: string, now: Date): Promise<boolean> {
      const result = await db
        .updateTable('devices')
        .set({
          revoked_at: now.toISOString(),
          lights: null,
          lights_updated_at: null,
          state: null,
          state_updated_at: null,
        })
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** The device exists and is not revoked. */
    async isLinked(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('devices')
        .select('id')
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row !== undefined;
    },

    /**
     * Stores a linked device's light list (JSON); returns the list it replaced (null: none yet), or
     * undefined when the device is not linked (unlinked since its token was checked).
     */
    async setLights(id: string, lights: string, now: Date): Promise<{ previous: string | null } | undefined> {
      return setReport(db, id, 'lights', lights, now);
    },

    async setState(id: string, state: string, now: Date): Promise<{ previous: string | null } | undefined> {
      return setReport(db, id, 'state', state, now);
    },

    async touch(id: string, now: Date): Promise<void> {
      await db.updateTable('devices').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
    },
  };
}

/** Stores what a linked (not unlinked) companion reports in one JSON column; undefined when it is not linked. */
async function setReport(
  db: Db,
  id: string,
  column: 'lights' | 'state',
  json: string,
  now: Date,
): Promise<{ previous: string | null } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('devices')
      .select(column)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return undefined;
    const at = now.toISOString();
    await trx
      .updateTable('devices')
      .set(
        column === 'lights' ? { lights: json, lights_updated_at: at } : { state: json, state_updated_at: at },
      )
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .execute();
    return { previous: (row as Record<typeof column, string | null>)[column] };
  });
}
