import type { Migration } from 'kysely';
import * as m0001 from './0001-users.js';
import * as m0002 from './0002-auth.js';
import * as m0003 from './0003-money.js';
import * as m0004 from './0004-tracked-sessions.js';
import * as m0005 from './0005-hue.js';
import * as m0006 from './0006-email-verification.js';
import * as m0007 from './0007-user-preferences.js';
import * as m0008 from './0008-devices.js';
import * as m0009 from './0009-device-lights.js';
import * as m0010 from './0010-govee.js';
import * as m0011 from './0011-post-race-mail.js';
import * as m0012 from './0012-device-state.js';

/** Every migration, in order. Names are stable: they are recorded in the database. */
export const migrations: Record<string, Migration> = {
  '0001-users': m0001,
  '0002-auth': m0002,
  '0003-money': m0003,
  '0004-tracked-sessions': m0004,
  '0005-hue': m0005,
  '0006-email-verification': m0006,
  '0007-user-preferences': m0007,
  '0008-devices': m0008,
  '0009-device-lights': m0009,
  '0010-govee': m0010,
  '0011-post-race-mail': m0011,
  '0012-device-state': m0012,
};
