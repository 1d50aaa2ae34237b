import type { LightState } from '@flaglight/core';
import { FLAG_STYLES, type FlagState } from '../flags/flag-styles';

/**
 * What a change is shown and played as. The server sends a safety car as `yellow` (the light plays
 * the yellow effect, DESIGN §6); its cause tells it apart, so the panel can say "Safety car" and
 * the lights play the `safety` flag, which is the same yellow effect.
 */
export function toDisplayFlag(state: LightState, causeMessage: string): FlagState {
  if (state !== 'yellow') return state;
  const text = causeMessage.toUpperCase();
  const safetyCar = /\bSAFETY CAR\b/.test(text) && !/\bVIRTUAL SAFETY CAR\b|\bVSC\b/.test(text);
  return safetyCar ? 'safety' : 'yellow';
}

export function flagLabel(flag: FlagState): string {
  return FLAG_STYLES.find((style) => style.state === flag)?.label ?? flag;
}

export function flagSwatch(flag: FlagState): string {
  return FLAG_STYLES.find((style) => style.state === flag)?.swatch ?? 'bg-ink-600';
}

/** "Sectors 4, 7" for the active yellow sectors. */
export function describeSectors(sectors: readonly number[]): string | null {
  if (sectors.length === 0) return null;
  return `${sectors.length === 1 ? 'Sector' : 'Sectors'} ${sectors.join(', ')}`;
}
