import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Db, DatabaseOptions } from './db/database.js';
import type { DemoSims } from './demo/sims.js';
import type { Timers } from './live/clock.js';
import type { PushConnector } from './live/push.js';
import type { Mailer } from './mail/mailer.js';

export interface ContextOptions {
  database?: DatabaseOptions;
  logger?: Logger;
  now?: () => Date;
  /** The live hub's clock and timers (tests pass a fake one). */
  timers?: Timers;
  connectPush?: PushConnector;
  /** How long the server waits for the Hue remote API (default 10 s; tests shorten it). */
  hueTimeoutMs?: number;
  /** How long the server waits for Govee's cloud (default 10 s; tests shorten it). */
  goveeTimeoutMs?: number;
}

/** What every step of the composition root builds on. */
export interface ContextBasics {
  config: Config;
  options: ContextOptions;
  logger: Logger;
  now: () => Date;
  db: Db;
  sims: DemoSims | undefined;
  /** A simulator's URL (demo mode); throws in live mode, where config names every outside service. */
  simUrl: (path: string) => string;
  mailer: Mailer;
}
