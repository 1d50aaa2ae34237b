/** Opens Settings with the Upgrade section open and in view (the trial prompt and modal use it). */
export const SETTINGS_UPGRADE_PATH = '/settings?section=upgrade';

/** Opens Settings with the Devices section (the linked companions) open and in view. */
export const DEVICES_SECTION_PATH = '/settings?section=devices';

/** Opens Settings with Flags & effects (how each flag looks, when the lights follow) open and in view. */
export const LOOKS_SECTION_PATH = '/settings?section=looks';
