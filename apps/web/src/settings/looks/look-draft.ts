import { LookSetSchema } from '@flaglight/contract/looks';
import {
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  LOOK_PRESETS,
  type EffectFlag,
  type LookEffect,
  type LookPresetId,
  type LookSet,
  type ShowLook,
} from '@flaglight/core';

/**
 * What the contract refuses in a look set being edited, by field: `red.brightness`,
 * `red.effectMs`, `red.effect.count`, `red.color`, `brightnessCap`, worded as its 400 words them.
 */
export type LookErrors = Readonly<Record<string, string>>;

export type LookCheck = { ok: true; looks: LookSet } | { ok: false; errors: LookErrors };

/** The field key an issue's path names (`flags.red.color.hue` → `red.color`). */
function fieldKey(path: readonly PropertyKey[]): string {
  const parts = path.map(String);
  const field = parts[0] === 'flags' ? parts.slice(1) : parts;
  // A colour is one control: its hue and saturation errors show beside it.
  if (field[1] === 'color') return field.slice(0, 2).join('.');
  return field.join('.');
}

/** The look set as the account would take it, or the first error of each field it would refuse. */
export function checkLookSet(looks: LookSet): LookCheck {
  const parsed = LookSetSchema.safeParse(looks);
  if (parsed.success) return { ok: true, looks: parsed.data };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const key = fieldKey(issue.path);
    errors[key] ??= issue.message;
  }
  return { ok: false, errors };
}

/** Clamps a look's effect length into what its effect needs and what the flag's hold allows. */
export function fitEffectMs(flag: EffectFlag, effect: LookEffect, effectMs: number): number {
  const minimum = getMinimumEffectMs(flag, effect);
  return Math.min(FLAG_LOOK_HOLD_MS[flag], Math.max(minimum, effectMs));
}

/**
 * A look with another effect (or pulse count): its length is brought within what the new effect
 * needs and the hold allows, so choosing an effect never leaves the look refused.
 */
export function withEffect(flag: EffectFlag, look: ShowLook, effect: LookEffect): ShowLook {
  const effectMs = Number.isFinite(look.effectMs) ? look.effectMs : 0;
  return { ...look, effect, effectMs: fitEffectMs(flag, effect, effectMs) };
}

/** JSON with every object's keys in order: the same look set reads the same, whatever built it. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );
}

/** The preset a look set is exactly (key order aside), if it is one. */
export function matchingPreset(looks: LookSet): LookPresetId | null {
  const text = canonical(looks);
  return LOOK_PRESETS.find((preset) => canonical(preset.looks) === text)?.id ?? null;
}

/** A fresh copy of a preset's looks, so edits never touch core's constant. */
export function copyLookSet(looks: LookSet): LookSet {
  return structuredClone(looks);
}

/** Seconds (as a fan types them, tenths at most) to whole milliseconds; NaN stays NaN. */
export function secondsToMs(seconds: number): number {
  return Number.isFinite(seconds) ? Math.round(seconds * 1000) : Number.NaN;
}
