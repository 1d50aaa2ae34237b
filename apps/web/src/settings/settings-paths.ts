/** Opens Settings with the Upgrade section open and in view (the trial prompt and modal use it). */
export const SETTINGS_UPGRADE_PATH = '/settings?section=upgrade';
