import {
  EFFECT_FLAGS,
  FLAG_LOOK_HOLD_MS,
  getMinimumEffectMs,
  LOOK_BRIGHTNESS_MAX,
  LOOK_BRIGHTNESS_MIN,
  LOOK_EFFECT_KINDS,
  LOOK_PULSE_MAX_COUNT,
  LOOK_PULSE_MIN_COUNT,
  type EffectFlag,
  type LookEffect,
  type LookSet,
} from '@flaglight/core';
import { z } from 'zod';
import { safeString } from './strings.js';

/** What a 400 says about a look set, after the path of the field (`looks.flags.red.color.hue: …`). */
export const LOOK_MESSAGES = {
  required: 'is required',
  hue: 'must be 0 to 360',
  saturation: 'must be 0 to 1',
  percent: `must be a whole percent from ${LOOK_BRIGHTNESS_MIN} to ${LOOK_BRIGHTNESS_MAX}`,
  count: `must be a whole number from ${LOOK_PULSE_MIN_COUNT} to ${LOOK_PULSE_MAX_COUNT}`,
  milliseconds: 'must be a whole number of milliseconds',
  noFlashing: 'must be true or false',
  notObject: 'must be an object',
  lookKind: 'must be "show" (a look) or "leave" (leave the lights as they are)',
  unknownEffect: (kind: unknown) =>
    kind === undefined
      ? `is required (one of: ${LOOK_EFFECT_KINDS.join(', ')})`
      : `unknown effect ${JSON.stringify(kind)} (known: ${LOOK_EFFECT_KINDS.join(', ')})`,
  unknownFlag: (keys: string[]) => `unknown flag ${quoted(keys)} (known: ${EFFECT_FLAGS.join(', ')})`,
  unknownField: (keys: string[]) => `unknown field ${quoted(keys)}`,
  longerThanHold: (flag: EffectFlag, holdMs: number) =>
    `must be at most ${holdMs} ms (the longest ${flag}'s effect may run before its look settles)`,
  shorterThanEffect: (effect: LookEffect, minimumMs: number) =>
    `must be at least ${minimumMs} ms for ${effectNeeds(effect)}`,
} as const;

/** What an effect needs its time for, as the 400 says it. */
function effectNeeds(effect: LookEffect): string {
  if (effect.kind === 'pulse') return `${effect.count} pulse${effect.count === 1 ? '' : 's'}`;
  return { steady: 'its fade', strobe: 'the strobe', breathe: 'one breath' }[effect.kind];
}

function quoted(keys: string[]): string {
  return keys.map((key) => JSON.stringify(key)).join(', ');
}

type Issue = { code?: string; input?: unknown; keys?: unknown };

/** Words an issue the schema raises: a missing field, a wrong type, keys outside the shape. */
function lookError(message: string, unknownKeys = LOOK_MESSAGES.unknownField) {
  return (issue: Issue): string => {
    if (issue.code === 'unrecognized_keys' && Array.isArray(issue.keys))
      return unknownKeys(issue.keys.map(String));
    return issue.input === undefined ? LOOK_MESSAGES.required : message;
  };
}

const percent = z
  .number({ error: lookError(LOOK_MESSAGES.percent) })
  .int(LOOK_MESSAGES.percent)
  .min(LOOK_BRIGHTNESS_MIN, LOOK_MESSAGES.percent)
  .max(LOOK_BRIGHTNESS_MAX, LOOK_MESSAGES.percent);

const LookColorSchema = z.strictObject(
  {
    name: safeString('colour name', { min: 1, max: 40 }),
    hue: z
      .number({ error: lookError(LOOK_MESSAGES.hue) })
      .min(0, LOOK_MESSAGES.hue)
      .max(360, LOOK_MESSAGES.hue),
    saturation: z
      .number({ error: lookError(LOOK_MESSAGES.saturation) })
      .min(0, LOOK_MESSAGES.saturation)
      .max(1, LOOK_MESSAGES.saturation),
  },
  { error: lookError(LOOK_MESSAGES.notObject) },
);

const plainEffect = (kind: 'steady' | 'strobe' | 'breathe') =>
  z.strictObject({ kind: z.literal(kind) }, { error: lookError(LOOK_MESSAGES.notObject) });

const LookEffectSchema = z.discriminatedUnion(
  'kind',
  [
    plainEffect('steady'),
    z.strictObject(
      {
        kind: z.literal('pulse'),
        count: z
          .number({ error: lookError(LOOK_MESSAGES.count) })
          .int(LOOK_MESSAGES.count)
          .min(LOOK_PULSE_MIN_COUNT, LOOK_MESSAGES.count)
          .max(LOOK_PULSE_MAX_COUNT, LOOK_MESSAGES.count),
      },
      { error: lookError(LOOK_MESSAGES.notObject) },
    ),
    plainEffect('strobe'),
    plainEffect('breathe'),
  ],
  {
    error: (issue) =>
      issue.code === 'invalid_union'
        ? LOOK_MESSAGES.unknownEffect((issue.input as { kind?: unknown } | undefined)?.kind)
        : lookError(LOOK_MESSAGES.notObject)(issue),
  },
);

const ShowLookSchema = z.strictObject(
  {
    kind: z.literal('show'),
    color: LookColorSchema,
    brightness: percent,
    effect: LookEffectSchema,
    effectMs: z
      .number({ error: lookError(LOOK_MESSAGES.milliseconds) })
      .int(LOOK_MESSAGES.milliseconds)
      .min(0, LOOK_MESSAGES.milliseconds),
    settleBrightness: percent,
  },
  { error: lookError(LOOK_MESSAGES.notObject) },
);

const LeaveLookSchema = z.strictObject(
  { kind: z.literal('leave') },
  { error: lookError(LOOK_MESSAGES.notObject) },
);

/** One flag's look, its effect long enough to play and settled within the flag's hold. */
function flagLookSchema(flag: EffectFlag) {
  return z
    .discriminatedUnion('kind', [ShowLookSchema, LeaveLookSchema], {
      error: (issue) =>
        issue.code === 'invalid_union' ? LOOK_MESSAGES.lookKind : lookError(LOOK_MESSAGES.notObject)(issue),
    })
    .superRefine((look, ctx) => {
      if (look.kind !== 'show') return;
      const holdMs = FLAG_LOOK_HOLD_MS[flag];
      const minimumMs = getMinimumEffectMs(flag, look.effect);
      if (look.effectMs > holdMs)
        ctx.addIssue({
          code: 'custom',
          path: ['effectMs'],
          message: LOOK_MESSAGES.longerThanHold(flag, holdMs),
        });
      else if (look.effectMs < minimumMs)
        ctx.addIssue({
          code: 'custom',
          path: ['effectMs'],
          message: LOOK_MESSAGES.shorterThanEffect(look.effect, minimumMs),
        });
    });
}

const flagLooks = Object.fromEntries(EFFECT_FLAGS.map((flag) => [flag, flagLookSchema(flag)])) as Record<
  EffectFlag,
  ReturnType<typeof flagLookSchema>
>;

/**
 * A fan's look set (core's LookSet): a look, or "leave", for every flag core knows, no other key;
 * a look's `effectMs` at least what its effect needs and at most the flag's hold (FLAG_LOOK_HOLD_MS).
 */
export const LookSetSchema = z
  .strictObject(
    {
      flags: z.strictObject(flagLooks, {
        error: lookError(LOOK_MESSAGES.notObject, LOOK_MESSAGES.unknownFlag),
      }),
      noFlashing: z.boolean({ error: lookError(LOOK_MESSAGES.noFlashing) }),
      brightnessCap: percent,
    },
    { error: lookError(LOOK_MESSAGES.notObject) },
  )
  .meta({ id: 'LookSet' }) satisfies z.ZodType<LookSet>;

/** The words of a zod issue as the API's 400 gives them: the field's path, then what is wrong. */
export function describeLookIssue(issue: { path: PropertyKey[]; message: string }, prefix = ''): string {
  const where = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
  return where ? `${where}: ${issue.message}` : issue.message;
}
