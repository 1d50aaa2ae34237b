import { EFFECT_FLAGS, LAN_LIGHT_PROVIDERS } from '@flaglight/core';
import { z } from 'zod';
import { defineRoute } from '../define.js';
import { errors } from '../errors.js';
import {
  DEVICE_APPROVALS_PER_MINUTE,
  DEVICE_CODE_TTL_SECONDS,
  DEVICE_CODES_PER_MINUTE,
  DEVICE_LIGHTS_BODY_LIMIT_BYTES,
  DEVICE_MAX_LINKED_PER_ACCOUNT,
  DEVICE_STATE_REPORTS_PER_MINUTE,
  DEVICE_LIGHT_REPORTS_PER_MINUTE,
  DEVICE_MAX_LIGHTS,
  DEVICE_POLL_INTERVAL_SECONDS,
  DEVICE_TESTS_PER_MINUTE,
} from '../limits.js';
import { safeString } from '../strings.js';

/** The grant type of RFC 8628 §3.4. */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

/** What a companion says about itself when it asks for a code; shown to the user who approves. */
export const DeviceInfoSchema = z.object({
  name: safeString('name', { min: 1, max: 80, trim: true }),
  platform: safeString('platform', { min: 1, max: 40, trim: true }),
  version: safeString('version', { min: 1, max: 40, trim: true }),
});

/** A user code as typed: any case, with or without the dash (checked against the alphabet by the server). */
const userCode = safeString('code', { min: 1, max: 20, trim: true });

/**
 * The companion's LAN providers. Their ids are the cloud's ids of the same bulb: `lifx_lan` the LIFX
 * MAC in lower-case hex (as `lifx`), `hue_local` the CLIP v2 light UUID (as `hue`'s remote API),
 * `govee_lan` the device id of the LAN scan (`1F:80:C5:…`, as Govee's cloud `device`).
 * `nanoleaf` (no cloud twin) is the controller's serial number in lower case; `home_assistant` (no
 * cloud twin) is the entity id (`light.kitchen`) in the one Home Assistant the companion uses;
 * `wled` (no cloud twin) is the device's MAC in lower-case hex (`a0b765d00001`).
 */
export const DEVICE_LIGHT_PROVIDERS = LAN_LIGHT_PROVIDERS;
export type DeviceLightProvider = (typeof DEVICE_LIGHT_PROVIDERS)[number];

/** A light a companion found on its network, as it reports it. */
export const DeviceLightSchema = z.object({
  provider: z.enum(DEVICE_LIGHT_PROVIDERS),
  id: safeString('light id', { min: 1, max: 128 }),
  label: safeString('label', { max: 80 }),
  reachable: z.boolean(),
});
export type DeviceLight = z.infer<typeof DeviceLightSchema>;

/** Where a companion's event stream is: what the web app says of it. */
export const DEVICE_STREAM_STATES = ['following', 'waiting', 'reconnecting', 'refused'] as const;

/**
 * What a companion says of itself (`PUT /api/device/state`), so the browser, the companion and the
 * server tell one story of what the room shows: its local bridge's port on its computer, whether its
 * lights are paused, its stream, and the flag its lights show now.
 */
export const DeviceStateSchema = z.object({
  /** The port of its local bridge on 127.0.0.1 (Test on this computer, Pair a Nanoleaf). */
  bridgePort: z.number().int().min(1024).max(65_535),
  /** Paused on its status page: flags and tests leave its lights as they are. */
  paused: z.boolean(),
  stream: z.enum(DEVICE_STREAM_STATES),
  /** Why it does not follow (a refusal, the server unreachable), in words; null while all is well. */
  message: safeString('message', { max: 200 }).nullable(),
  /** The flag its lights show now (null before any). */
  showing: z.enum(EFFECT_FLAGS).nullable(),
});
export type DeviceState = z.infer<typeof DeviceStateSchema>;

export const LinkedDeviceSchema = z.object({
  id: z.string(),
  name: z.string(),
  platform: z.string(),
  version: z.string(),
  linkedAt: z.string(),
  lastSeenAt: z.string().nullable(),
  /** Has an open event stream on this instance now. */
  online: z.boolean(),
  /** The lights it last reported (none until it does; cleared when it is unlinked). */
  lights: z.array(DeviceLightSchema),
  lightsUpdatedAt: z.string().nullable(),
  /** What it last said of itself (null until it does, or from a version that does not say). */
  state: DeviceStateSchema.nullable(),
  stateUpdatedAt: z.string().nullable(),
});
export type LinkedDevice = z.infer<typeof LinkedDeviceSchema>;

export const PendingDeviceSchema = z.object({
  name: z.string(),
  platform: z.string(),
  version: z.string(),
  /** The code in its shown form, `XXXX-XXXX`. */
  userCode: z.string(),
  expiresAt: z.string(),
});
export type PendingDevice = z.infer<typeof PendingDeviceSchema>;

const ok = z.object({ success: z.literal(true) });

export const deviceRoutes = {
  code: defineRoute({
    method: 'POST',
    path: '/api/device/code',
    auth: 'public',
    summary: 'A companion asks for a device code and a user code (RFC 8628 §3.1)',
    description:
      `The user opens \`verification_uri_complete\` signed in and approves. Codes live ` +
      `${DEVICE_CODE_TTL_SECONDS / 60} minutes and work once; poll the token route every ` +
      `\`interval\` seconds (${DEVICE_POLL_INTERVAL_SECONDS}). ${DEVICE_CODES_PER_MINUTE} codes per client address and minute.`,
    tags: ['devices'],
    body: DeviceInfoSchema,
    responses: {
      200: z.object({
        device_code: z.string(),
        user_code: z.string(),
        verification_uri: z.string(),
        verification_uri_complete: z.string(),
        expires_in: z.number(),
        interval: z.number(),
      }),
      ...errors(400, 429),
    },
  }),
  token: defineRoute({
    method: 'POST',
    path: '/api/device/token',
    auth: 'public',
    summary: 'A companion polls for its device token (RFC 8628 §3.4, §3.5)',
    description:
      'Until the user decides: 400 with `error` and `code` both `authorization_pending` (`slow_down` when ' +
      'polled faster than the interval), then `access_denied` or `expired_token`; an unknown or spent ' +
      'device code is `invalid_grant`, another grant type `unsupported_grant_type`. `error_description` ' +
      'says it in words. An approved code gives its token once.',
    tags: ['devices'],
    body: z.object({
      grant_type: safeString('grant_type', { min: 1, max: 100 }),
      device_code: safeString('device_code', { min: 1, max: 200 }),
    }),
    responses: {
      200: z.object({
        access_token: z.string(),
        token_type: z.literal('Bearer'),
        device: z.object({ id: z.string(), name: z.string() }),
      }),
      ...errors(400, 429),
    },
  }),
  pending: defineRoute({
    method: 'GET',
    path: '/api/device/pending',
    auth: 'user',
    summary: 'The companion waiting for a user code, to show before the user approves it',
    description: `404 \`not_found\` for an unknown or decided code, \`expired_token\` for an expired one. ${DEVICE_APPROVALS_PER_MINUTE} look-ups per account and minute.`,
    tags: ['devices'],
    query: z.object({ code: userCode }),
    responses: { 200: PendingDeviceSchema, ...errors(400, 401, 404, 429) },
  }),
  approve: defineRoute({
    method: 'POST',
    path: '/api/device/approve',
    auth: 'user',
    summary: 'Link the waiting companion to the signed-in account',
    description:
      `${DEVICE_APPROVALS_PER_MINUTE} per account and minute. An account with ${DEVICE_MAX_LINKED_PER_ACCOUNT} ` +
      'linked companions gets 409 `conflict` until it unlinks one.',
    tags: ['devices'],
    body: z.object({ code: userCode }),
    responses: { 200: ok, ...errors(400, 401, 404, 409, 429) },
  }),
  deny: defineRoute({
    method: 'POST',
    path: '/api/device/deny',
    auth: 'user',
    summary: 'Refuse the waiting companion: its poll gets access_denied',
    description: `${DEVICE_APPROVALS_PER_MINUTE} per account and minute.`,
    tags: ['devices'],
    body: z.object({ code: userCode }),
    responses: { 200: ok, ...errors(400, 401, 404, 429) },
  }),
  list: defineRoute({
    method: 'GET',
    path: '/api/devices',
    auth: 'user',
    summary: "The account's linked companions",
    tags: ['devices'],
    responses: { 200: z.array(LinkedDeviceSchema), ...errors(401) },
  }),
  reportLights: defineRoute({
    method: 'PUT',
    path: '/api/device/lights',
    auth: 'device',
    deviceOnly: true,
    summary: 'A companion reports the LAN lights it found (replaces its previous list)',
    description:
      `Device token only: a signed-in account gets 403 \`forbidden\`. At most ${DEVICE_MAX_LIGHTS} lights; ` +
      `${DEVICE_LIGHT_REPORTS_PER_MINUTE} reports per companion and minute. When the list changes, every ` +
      'open event stream of the account receives `event: devices`.',
    tags: ['devices'],
    body: z.object({ lights: z.array(DeviceLightSchema).max(DEVICE_MAX_LIGHTS) }),
    bodyLimit: DEVICE_LIGHTS_BODY_LIMIT_BYTES,
    responses: { 200: ok, ...errors(400, 401, 403, 413, 415, 429) },
  }),
  reportState: defineRoute({
    method: 'PUT',
    path: '/api/device/state',
    auth: 'device',
    deviceOnly: true,
    summary: 'A companion says what it does: its bridge port, paused, its stream, the flag its lights show',
    description:
      `Device token only. ${DEVICE_STATE_REPORTS_PER_MINUTE} reports per companion and minute. When it ` +
      'changes, every open event stream of the account receives `event: devices`.',
    tags: ['devices'],
    body: DeviceStateSchema,
    responses: { 200: ok, ...errors(400, 401, 403, 415, 429) },
  }),
  test: defineRoute({
    method: 'POST',
    path: '/api/devices/test',
    auth: 'user',
    summary: "Play a test flag on the account's companions",
    description:
      "Sends `event: test` (`{state, requestedAt}`) to the account's companion streams (never to a web " +
      'page). `devices`: how many online companions it reached on this instance. ' +
      `${DEVICE_TESTS_PER_MINUTE} per account and minute.`,
    tags: ['devices'],
    body: z.object({ state: z.enum(EFFECT_FLAGS) }),
    responses: {
      200: z.object({ success: z.literal(true), devices: z.number().int().min(0) }),
      ...errors(400, 401, 415, 429),
    },
  }),
  unlink: defineRoute({
    method: 'DELETE',
    path: '/api/devices/:id',
    auth: 'user',
    summary: 'Unlink a companion: its token stops working and its event streams close',
    tags: ['devices'],
    params: z.object({ id: safeString('id', { min: 1, max: 100 }) }),
    responses: { 200: ok, ...errors(401, 404) },
  }),
};
