import { useCallback, useSyncExternalStore } from 'react';
import type { FlagState } from '../flags/flag-styles';

export const DEFAULT_ACCENT_FLAG: FlagState = 'green';

// The page's accent follows the flag: links, focus rings and primary buttons take its colour.
// Every flag colour is light enough for the dark on-accent text (at least 4.5:1).
const ACCENT_TOKEN: Record<FlagState, string> = {
  green: 'flag-green',
  yellow: 'flag-yellow',
  red: 'flag-red',
  checkered: 'flag-checkered',
  safety: 'flag-safety',
  vsc: 'flag-vsc',
  vsc_ending: 'flag-vsc-ending',
  fastest_lap: 'flag-fastest-lap',
};

let current: FlagState = DEFAULT_ACCENT_FLAG;
const listeners = new Set<() => void>();

function apply(flag: FlagState) {
  const root = document.documentElement;
  root.dataset.flag = flag;
  if (flag === DEFAULT_ACCENT_FLAG) {
    root.style.removeProperty('--color-accent');
    root.style.removeProperty('--color-accent-strong');
    return;
  }
  const token = `var(--color-${ACCENT_TOKEN[flag]})`;
  root.style.setProperty('--color-accent', token);
  root.style.setProperty('--color-accent-strong', `color-mix(in oklab, ${token} 80%, white)`);
}

/** Sets the page's accent to a flag's colour; green is the resting accent. */
export function setFlagAccent(flag: FlagState): void {
  if (flag === current) return;
  current = flag;
  apply(flag);
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The current accent flag and a setter, shared by every panel (the live panel sets it on each change). */
export function useFlagAccent(): { flag: FlagState; setFlag: (flag: FlagState) => void; reset: () => void } {
  const flag = useSyncExternalStore(
    subscribe,
    () => current,
    () => DEFAULT_ACCENT_FLAG,
  );
  const reset = useCallback(() => setFlagAccent(DEFAULT_ACCENT_FLAG), []);
  return { flag, setFlag: setFlagAccent, reset };
}
