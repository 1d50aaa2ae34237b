import type { LookSet } from '@flaglight/core';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { SecretBox } from '../hue/crypto.js';
import type { GoveeCloudClient } from './client.js';

export interface GoveeServiceDeps {
  db: Db;
  /** Seals keys at rest (a box of its own, derived from APP_SECRET: docs/decisions/009). */
  box: SecretBox;
  client: GoveeCloudClient;
  logger: Logger;
  now: () => Date;
  /** The account's look set from its stored preferences (never the browser's word); undefined: Trackside. */
  looksOf?: (userId: string) => Promise<LookSet | undefined>;
  /** Tests shorten the coalescing window; the minute budget is Govee's. */
  coalesceMs?: number;
}
