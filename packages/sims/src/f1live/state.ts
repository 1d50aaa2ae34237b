import { type F1LiveMessageFault, type F1LiveMode, type F1LiveSimOptions } from './types.js';

/** The simulator's switches and counters: set by the control, read by every part of the hub. */
export interface SimState {
  mode: F1LiveMode;
  messageFault: F1LiveMessageFault;
  cookieRequired: boolean;
  /** Set once by `close()`: later upgrades are ignored. */
  closed: boolean;
  counts: Record<string, number>;
  count(what: string): void;
}

export function createSimState(options: F1LiveSimOptions): SimState {
  const counts: Record<string, number> = {};
  return {
    mode: options.mode ?? 'normal',
    messageFault: 'none',
    cookieRequired: options.requireCookie ?? false,
    closed: false,
    counts,
    count(what) {
      counts[what] = (counts[what] ?? 0) + 1;
    },
  };
}
