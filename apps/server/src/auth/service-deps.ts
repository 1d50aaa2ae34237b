import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Db } from '../db/database.js';
import type { Mailer } from '../mail/mailer.js';
import type { LoginThrottle } from './login-throttle.js';

export interface AuthServiceDeps {
  db: Db;
  config: Config;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  /** Race start times of the calendar, for the trial length rule (DESIGN §6). */
  raceStarts: () => Promise<Date[]>;
  /** Growing waits after failed sign-ins per e-mail address (login-throttle.ts). */
  loginThrottle: LoginThrottle;
}
