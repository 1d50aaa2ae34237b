import { z } from 'zod';
import { DEFAULT_DELAY_ENABLED, DEFAULT_DELAY_SECONDS } from '../constants.js';
import type { LightFollowSettings } from '../looks/follow.js';
import type { LookSet } from '../looks/types.js';
import { isLanLightProvider, LAN_LIGHT_PROVIDERS } from './providers.js';

export const TOAST_TYPES = ['success', 'error', 'warning', 'info'] as const;
export const ToastTypeSchema = z.enum(TOAST_TYPES);
export type ToastType = z.infer<typeof ToastTypeSchema>;

/** SPEC §3 Toast. `action` is a label plus whatever the UI attaches to it. */
export interface Toast {
  id: string;
  type: ToastType;
  title: string;
  message?: string;
  duration: number;
  action?: { label: string; onClick: () => void };
}

export const FAQ_CATEGORIES = ['general', 'technical', 'billing', 'compatibility'] as const;
export const FaqItemSchema = z.object({ question: z.string(), answer: z.string(), category: z.string() });
export type FaqItem = z.infer<typeof FaqItemSchema>;

export const FeatureFlagsSchema = z.object({
  centralizedPolling: z.boolean().default(false),
  webSocketUpdates: z.boolean().default(false),
  newUI: z.boolean().default(false),
});
export type FeatureFlags = z.infer<typeof FeatureFlagsSchema>;

/**
 * A selection of a desktop companion's LAN lights, by provider. A provider that is absent is not
 * narrowed: the companion drives every light of it that it finds.
 */
export const CompanionLightIdsSchema = z.preprocess(
  // Read back from browser storage: a provider this release does not know is dropped, not fatal.
  (value) =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).filter(([key]) => isLanLightProvider(key)))
      : value,
  z.partialRecord(z.enum(LAN_LIGHT_PROVIDERS), z.array(z.string())),
);
export type CompanionLightIds = z.infer<typeof CompanionLightIdsSchema>;

/** Who drives a light selected both in the cloud and on a companion while the companion is online. */
export const SHARED_LIGHTS_DRIVER_VALUES = ['companion', 'browser'] as const;

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** SPEC §3 local settings per user, as read back from browser storage (bad values fall back to defaults). */
export const LocalSettingsSchema = z.object({
  selectedLifxDeviceIds: z.array(z.string()).catch([]).default([]),
  selectedHueDeviceIds: z.array(z.string()).catch([]).default([]),
  /** Govee cloud lights (driven through the app's server). */
  selectedGoveeDeviceIds: z.array(z.string()).catch([]).default([]),
  delaySeconds: z.number().int().min(0).catch(DEFAULT_DELAY_SECONDS).default(DEFAULT_DELAY_SECONDS),
  delayEnabled: z.boolean().catch(DEFAULT_DELAY_ENABLED).default(DEFAULT_DELAY_ENABLED),
  /** Settings → App Preferences (DESIGN §6: persisted per user, on by default). */
  autoConnect: z.boolean().catch(true).default(true),
  /**
   * The on-screen light counts as a light (on by default): a fan without smart lights connects and
   * follows the race on the screen alone. Unticked, Connect needs another light again.
   */
  screenLight: z.boolean().catch(true).default(true),
  /**
   * This browser's own choice, never synced: the on-screen light flashes even though the system asks
   * for reduced motion (off by default: with reduced motion the screen never flashes).
   */
  screenFlashing: z.boolean().catch(false).default(false),
  /** Devices the user hid from the Light Control list (SPEC §2 per-device hide button). */
  hiddenLifxDeviceIds: z.array(z.string()).catch([]).default([]),
  hiddenHueDeviceIds: z.array(z.string()).catch([]).default([]),
  hiddenGoveeDeviceIds: z.array(z.string()).catch([]).default([]),
  /** The account's choice of companion (LAN) lights, kept as the account's preferences have it. */
  companionSelectedLights: CompanionLightIdsSchema.catch({}).default({}),
  companionHiddenLights: CompanionLightIdsSchema.catch({}).default({}),
  sharedLightsDriver: z.enum(SHARED_LIGHTS_DRIVER_VALUES).catch('companion').default('companion'),
  /**
   * The account's look set (Settings → Flags & effects); absent plays Trackside. Core only checks
   * that it is an object: the web app reads it back through the contract's LookSetSchema, which
   * drops one that is not a valid look set.
   */
  looks: z.custom<LookSet>(isRecord).optional().catch(undefined),
  /** The account's follow settings (which sessions, after green, session end); absent: the defaults. */
  lightFollow: z.custom<LightFollowSettings>(isRecord).optional().catch(undefined),
  featureFlags: FeatureFlagsSchema.catch({
    centralizedPolling: false,
    webSocketUpdates: false,
    newUI: false,
  }).default({
    centralizedPolling: false,
    webSocketUpdates: false,
    newUI: false,
  }),
});
export type LocalSettings = z.infer<typeof LocalSettingsSchema>;
