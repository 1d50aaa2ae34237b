import {
  DEFAULT_DELAY_ENABLED,
  DEFAULT_DELAY_SECONDS,
  LIGHT_PROVIDERS,
  SHARED_LIGHTS_DRIVER_VALUES,
} from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import { LightFollowSchema } from '../light-follow.js';
import {
  PREFERENCES_MAX_DELAY_SECONDS,
  PREFERENCES_MAX_DEVICE_OFFSETS,
  PREFERENCES_MAX_LIGHTS_PER_PROVIDER,
  PREFERENCES_BODY_LIMIT_BYTES,
  PREFERENCES_MAX_OFFSET_MS,
  PREFERENCES_WRITES_PER_MINUTE,
} from '../limits.js';
import { LookSetSchema } from '../looks.js';
import { safeString } from '../strings.js';

const lightId = safeString('light id', { min: 1, max: 128 });
const lightIds = z.array(lightId).max(PREFERENCES_MAX_LIGHTS_PER_PROVIDER);
/**
 * Light ids by provider. The keys are the product's own list (`LIGHT_PROVIDERS`: the cloud's `lifx`,
 * `hue`, `govee` and the companion's LAN brands), so every provider fits and a key outside it is
 * refused by name.
 */
const perProvider = z.partialRecord(z.enum(LIGHT_PROVIDERS), lightIds, { error: unknownProviderMessage });

/** A record's keys outside its enum come as `unrecognized_keys` (zod's issue types leave that code out). */
function unknownProviderMessage(issue: { code?: string }): string | undefined {
  const keys = issue.code === 'unrecognized_keys' ? (issue as { keys?: unknown }).keys : undefined;
  if (!Array.isArray(keys)) return undefined;
  const named = keys.map((key) => JSON.stringify(String(key))).join(', ');
  return `unknown provider ${named} (known: ${LIGHT_PROVIDERS.join(', ')})`;
}
const deviceId = safeString('device id', { min: 1, max: 64 });

/**
 * Who drives a light selected both as a cloud light (`lifx` X, `hue` Y) and as a companion's LAN
 * light (`lifx_lan` X, `hue_local` Y) while a linked companion of the account is online: with
 * `companion` the browser leaves those lights out, with `browser` the companion does.
 */
export type SharedLightsDriver = (typeof SHARED_LIGHTS_DRIVER_VALUES)[number];

/** What an account keeps across its browsers and companions (SPEC §3 local settings, now on the server). */
export const PreferencesSchema = z
  .object({
    delay: z.object({
      enabled: z.boolean(),
      seconds: z.number().int().min(0).max(PREFERENCES_MAX_DELAY_SECONDS),
    }),
    /** Settings → App Preferences: connect when a session goes live. */
    autoConnect: z.boolean(),
    /** The lights that follow the flags, by provider then light id. */
    selectedLights: perProvider,
    /** Lights the user hid from the Light Control list. */
    hiddenLights: perProvider,
    featureFlags: z.object({
      centralizedPolling: z.boolean(),
      webSocketUpdates: z.boolean(),
      newUI: z.boolean(),
    }),
    /** A companion's own delay on top of `delay` (a room whose TV runs on another feed), by device id. */
    delayOffsetsMs: z
      .record(deviceId, z.number().int().min(-PREFERENCES_MAX_OFFSET_MS).max(PREFERENCES_MAX_OFFSET_MS))
      .refine((value) => Object.keys(value).length <= PREFERENCES_MAX_DEVICE_OFFSETS, {
        message: `at most ${PREFERENCES_MAX_DEVICE_OFFSETS} device offsets`,
      }),
    /** Documents stored before this field existed read as `companion`. */
    sharedLightsDriver: z.enum(SHARED_LIGHTS_DRIVER_VALUES).default('companion'),
    /**
     * How each flag looks on the account's lights (core's LookSet). Absent: Trackside, SPEC §4's
     * effects, so documents stored before this field existed play exactly what they played.
     */
    looks: LookSetSchema.optional(),
    /**
     * Which sessions drive the lights and what a long green and the session's end do (core's
     * LightFollowSettings). Absent: DEFAULT_LIGHT_FOLLOW, what Flaglight did before fans could choose.
     */
    lightFollow: LightFollowSchema.optional(),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof PreferencesSchema>;

/** A new account's preferences (SPEC §9 delay default; auto-connect on, DESIGN §6). */
export const DEFAULT_PREFERENCES: Preferences = {
  delay: { enabled: DEFAULT_DELAY_ENABLED, seconds: DEFAULT_DELAY_SECONDS },
  autoConnect: true,
  selectedLights: {},
  hiddenLights: {},
  featureFlags: { centralizedPolling: false, webSocketUpdates: false, newUI: false },
  delayOffsetsMs: {},
  sharedLightsDriver: 'companion',
};

/**
 * The stored document. `version` counts writes (0: never written, the defaults); a write names the
 * version it was based on, and a stale one is refused with 409 `conflict` and the current document.
 */
export const PreferencesDocumentSchema = z
  .object({
    version: z.number().int().min(0),
    preferences: PreferencesSchema,
    updatedAt: z.string().nullable(),
  })
  .meta({ id: 'PreferencesDocument' });
export type PreferencesDocument = z.infer<typeof PreferencesDocumentSchema>;

export const PutPreferencesBodySchema = z.object({
  version: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  preferences: PreferencesSchema,
});

/** The 409 of a stale write: the error and the document as it is now, to merge and retry. */
export const PreferencesConflictSchema = z
  .object({ error: z.string(), code: z.literal('conflict'), current: PreferencesDocumentSchema })
  .meta({ id: 'PreferencesConflict' });

export const preferenceRoutes = {
  get: defineRoute({
    method: 'GET',
    path: '/api/me/preferences',
    auth: 'device',
    summary: "The account's preferences (delay, auto-connect, selected lights)",
    tags: ['preferences'],
    responses: { 200: PreferencesDocumentSchema, ...errors(401, 403, 429) },
  }),
  put: defineRoute({
    method: 'PUT',
    path: '/api/me/preferences',
    auth: 'device',
    summary: "Replace the account's preferences (optimistic concurrency on `version`)",
    description:
      'Send the `version` the change was based on. A stale version is refused with 409 `conflict` and ' +
      'the current document (`current`): merge and retry. Every open event stream of the account then ' +
      `receives \`event: preferences\`. ${PREFERENCES_WRITES_PER_MINUTE} writes per account and minute.`,
    tags: ['preferences'],
    body: PutPreferencesBodySchema,
    bodyLimit: PREFERENCES_BODY_LIMIT_BYTES,
    responses: {
      200: PreferencesDocumentSchema,
      409: PreferencesConflictSchema,
      ...errors(400, 401, 403, 413, 415, 429),
    },
  }),
};
