import { createContext, useContext, type RefObject } from 'react';
import type { useLiveConnection } from './use-live-connection';

export type LiveConnectionApi = ReturnType<typeof useLiveConnection> & {
  /** The screen is kept awake while connected (Wake Lock API). */
  wakeLockHeld: boolean;
  /** The live session auto-connect last tried, so a manual disconnect is not undone. */
  autoConnectTried: RefObject<string | null>;
};

export const LiveConnectionContext = createContext<LiveConnectionApi | null>(null);

export function useLiveConnectionContext(): LiveConnectionApi {
  const live = useContext(LiveConnectionContext);
  if (!live) throw new Error('useLiveConnectionContext needs a LiveProvider above it');
  return live;
}
