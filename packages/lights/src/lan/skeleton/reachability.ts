import type { DriverEvents } from '../../driver.js';
import type { LightErrorInfo } from '../../errors.js';

export interface Reachability {
  isReachable(id: string): boolean;
  /**
   * The device stopped answering: what waits for it is dropped, the loss logged and reported as an
   * error event. False (and nothing done) when it was unreachable already.
   */
  lost(id: string, error: LightErrorInfo, logLine: string): boolean;
  /** The device answers again: logged, and its last look sent again. False when it was reachable. */
  back(id: string, logLine: string): boolean;
  /** The device left the list: nothing is kept about it. */
  forget(id: string): void;
}

/** Which devices answer, and what happens when one stops or starts again. Devices start reachable. */
export function createReachability(options: {
  events: DriverEvents;
  log: (message: string) => void;
  onLost: (id: string) => void;
  onBack: (id: string) => void;
}): Reachability {
  const silent = new Set<string>();
  return {
    isReachable: (id) => !silent.has(id),
    lost(id, error, logLine) {
      if (silent.has(id)) return false;
      silent.add(id);
      options.onLost(id);
      options.log(logLine);
      options.events.emit({ type: 'error', error: { kind: error.kind, message: error.message } });
      return true;
    },
    back(id, logLine) {
      if (!silent.delete(id)) return false;
      options.log(logLine);
      options.onBack(id);
      return true;
    },
    forget: (id) => void silent.delete(id),
  };
}
