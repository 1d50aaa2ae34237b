import { DESKTOP_DOWNLOAD_URL } from '../help/support';

/** The companion builds the server offers (DESIGN §5.9); there is no macOS build yet. */
export const DESKTOP_BUILDS = {
  windows: { label: 'Download for Windows', href: DESKTOP_DOWNLOAD_URL },
  linux: {
    label: 'Download for Linux',
    href: '/api/downloads/flaglight-linux',
    // A downloaded file loses its executable bit.
    hint: 'then chmod +x and run it',
  },
  raspberryPi: {
    label: 'Download for Raspberry Pi',
    href: '/api/downloads/flaglight-linux-arm64',
    hint: 'Raspberry Pi 3, 4 or 5 with a 64-bit OS; to run it at boot, see “Can the companion run on a Raspberry Pi?”',
  },
} as const;

export const MAC_NOTE = 'macOS: coming later';

/** Which build fits a visitor: `other` is macOS, phones, ChromeOS, BSD, Linux on ARM, unknown. */
export type DesktopSystem = 'windows' | 'linux' | 'other';

/** What the browser says about its system (the fields of `navigator` that are read). */
export interface NavigatorHints {
  /** User-Agent Client Hints (Chromium); absent in Firefox and Safari. */
  userAgentData?: { platform?: string } | undefined;
  platform?: string;
  userAgent?: string;
}

const NOT_DESKTOP = /android|iphone|ipad|ipod|\bcros\b|chrome ?os/i;
// `\b`: Darwin's "win" is no Windows.
const WINDOWS = /\bwin(?:dows|32|64)?\b/i;
const MAC = /\bmac/i;
const LINUX = /\blinux\b/i;
// The Linux build is x86-64 only; Windows on ARM runs x64 programs, Linux does not.
const ARM = /\b(?:arm|aarch64)/i;

function systemOf(text: string): DesktopSystem {
  if (NOT_DESKTOP.test(text)) return 'other';
  if (WINDOWS.test(text)) return 'windows';
  if (MAC.test(text)) return 'other';
  if (LINUX.test(text)) return 'linux';
  return 'other';
}

/**
 * The visitor's desktop system: Client Hints' platform when the browser gives one, else the
 * user-agent string and `navigator.platform` (the user agent first: a test or a user may override it).
 */
export function detectDesktopSystem(nav: NavigatorHints): DesktopSystem {
  const hinted = nav.userAgentData?.platform?.trim();
  const system = systemOf(hinted || `${nav.userAgent ?? ''} ${nav.platform ?? ''}`);
  if (system === 'linux' && ARM.test(`${nav.platform ?? ''} ${nav.userAgent ?? ''}`)) return 'other';
  return system;
}

/** This browser's system; `other` outside a browser. */
export function currentDesktopSystem(): DesktopSystem {
  return typeof navigator === 'undefined' ? 'other' : detectDesktopSystem(navigator);
}
