import { describe, expect, test } from 'vitest';
import { detectDesktopSystem, type NavigatorHints } from './desktop-builds';

const UA = {
  chromeWindows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  firefoxWindows: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
  firefoxUbuntu: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  chromeLinux:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  safariMac:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  firefoxAndroid: 'Mozilla/5.0 (Android 14; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0',
  chromeAndroid:
    'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36',
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
  chromeOs:
    'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  freeBsd: 'Mozilla/5.0 (X11; FreeBSD amd64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

describe('detectDesktopSystem', () => {
  test.each<[string, NavigatorHints, string]>([
    [
      'Chrome on Windows (Client Hints)',
      { userAgentData: { platform: 'Windows' }, platform: 'Win32', userAgent: UA.chromeWindows },
      'windows',
    ],
    ['Firefox on Windows (no Client Hints)', { platform: 'Win32', userAgent: UA.firefoxWindows }, 'windows'],
    [
      'Chrome on Linux',
      { userAgentData: { platform: 'Linux' }, platform: 'Linux x86_64', userAgent: UA.chromeLinux },
      'linux',
    ],
    ['Firefox on Ubuntu', { platform: 'Linux x86_64', userAgent: UA.firefoxUbuntu }, 'linux'],
    ['Safari on a Mac', { platform: 'MacIntel', userAgent: UA.safariMac }, 'other'],
    [
      'Chrome on a Mac',
      { userAgentData: { platform: 'macOS' }, platform: 'MacIntel', userAgent: UA.safariMac },
      'other',
    ],
    [
      'Chrome on Android',
      { userAgentData: { platform: 'Android' }, platform: 'Linux armv8l', userAgent: UA.chromeAndroid },
      'other',
    ],
    [
      'Firefox on Android (platform says Linux)',
      { platform: 'Linux armv8l', userAgent: UA.firefoxAndroid },
      'other',
    ],
    ['an iPhone', { platform: 'iPhone', userAgent: UA.iPhone }, 'other'],
    [
      'a Chromebook',
      { userAgentData: { platform: 'Chrome OS' }, platform: 'Linux x86_64', userAgent: UA.chromeOs },
      'other',
    ],
    ['a Chromebook without Client Hints', { platform: 'Linux x86_64', userAgent: UA.chromeOs }, 'other'],
    ['FreeBSD', { platform: 'FreeBSD amd64', userAgent: UA.freeBsd }, 'other'],
    [
      'Linux on ARM (no x64 build for it)',
      { userAgentData: { platform: 'Linux' }, platform: 'Linux aarch64', userAgent: UA.chromeLinux },
      'other',
    ],
    [
      'empty Client Hints fall back to the user agent',
      { userAgentData: { platform: '' }, platform: 'Linux x86_64', userAgent: UA.chromeWindows },
      'windows',
    ],
    ['Darwin is not Windows', { platform: 'Darwin', userAgent: '' }, 'other'],
    ['nothing known', {}, 'other'],
  ])('%s', (_name, nav, expected) => {
    expect(detectDesktopSystem(nav)).toBe(expected);
  });
});
