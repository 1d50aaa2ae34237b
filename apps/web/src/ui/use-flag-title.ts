import { useEffect } from 'react';
import { FLAG_STYLES, type FlagState } from '../flags/flag-styles';
import { APP_NAME, setFlagTitleText } from './use-document-title';

/** The tab title while a flag shows, e.g. 'Yellow flag · Flaglight', so a glance at the tab tells the state. */
export function flagTitle(flag: FlagState): string {
  const label = FLAG_STYLES.find((style) => style.state === flag)?.label ?? flag;
  return `${label} · ${APP_NAME}`;
}

/**
 * Shows the current flag in the page title, over every screen's own title; null gives the screen
 * its title back (as does unmounting).
 */
export function useFlagTitle(flag: FlagState | null): void {
  useEffect(() => {
    if (!flag) return;
    setFlagTitleText(flagTitle(flag));
    return () => setFlagTitleText(null);
  }, [flag]);
}
