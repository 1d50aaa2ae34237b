import type { LightState } from '@flaglight/core';
import { FLAG_STYLES, type FlagState } from '../flags/flag-styles';

/**
 * What a change is shown and played as. The server sends a safety car as `yellow` (the light plays
 * the yellow effect, DESIGN §6) with `safetyCar: true` (decision 018), so the panel can say
 * "Safety car" and the lights play the `safety` flag, which is the same yellow effect. Events from
 * before `safetyCar` existed are told apart by their cause's text.
 */
export function toDisplayFlag(state: LightState, causeMessage: string, safetyCar?: boolean): FlagState {
  if (state !== 'yellow') return state;
  if (typeof safetyCar === 'boolean') return safetyCar ? 'safety' : 'yellow';
  const text = causeMessage.toUpperCase();
  const fromText = /\bSAFETY CAR\b/.test(text) && !/\bVIRTUAL SAFETY CAR\b|\bVSC\b/.test(text);
  return fromText ? 'safety' : 'yellow';
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
