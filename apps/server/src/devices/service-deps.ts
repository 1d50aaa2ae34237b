import type { Db } from '../db/database.js';
import type { UserEvents } from '../live/user-events.js';

export interface DeviceServiceDeps {
  db: Db;
  publicUrl: string;
  now: () => Date;
  /** Whether a device has an open event stream on this instance. */
  isOnline: (deviceId: string) => boolean;
  /** Called after a device is unlinked: its open streams close. */
  onRevoked: (deviceId: string) => void;
  /** Account-wide stream events: `devices` when a companion's lights change, `test` for its streams. */
  events: Pick<UserEvents, 'publish'>;
  /**
   * A companion was linked that is the same computer as an earlier one of the account (same name and
   * platform, the earlier one unlinked or offline): its room delay goes over (decision 041).
   */
  onRelinked?: (link: { userId: string; fromDeviceId: string; toDeviceId: string }) => Promise<void>;
}
