import { expect, test } from 'vitest';
import { companion } from '../test/companions';
import { browserSelection } from './companion/companion-lights';
import { readCompanionDevices, storeCompanionDevices } from './companion/companion-store';
import { readLocalSettings } from './settings/local-settings';
import { readUnsavedPreferences, setUnsavedPreferences } from './settings/preferences-save-state';
import { setFlagAccent } from './ui/flag-accent';
import { APP_NAME, setFlagTitleText } from './ui/use-document-title';

// The web project's files share one module graph per worker (vitest.config.ts): what a module keeps
// beyond the page's storage is reset after every test (test/setup.ts), so a test never reads what
// another left. The first test leaves some of everything; the second, run after it, finds none.
const EMAIL = 'left-behind@example.com';

test('a test leaves a companion list, unsaved preferences, a flag accent and a flag title', () => {
  storeCompanionDevices(EMAIL, [companion()]);
  setUnsavedPreferences(EMAIL, { areas: ['delay'], reason: 'offline', retrying: false });
  setFlagAccent('red');
  setFlagTitleText('Red flag');
  expect(readCompanionDevices(EMAIL)).toHaveLength(1);
  expect(document.documentElement.dataset.flag).toBe('red');
});

test('the next test finds none of it: its LIFX bulbs stay in the browser’s selection', () => {
  expect(readCompanionDevices(EMAIL)).toBeNull();
  const settings = { ...readLocalSettings(EMAIL), selectedLifxDeviceIds: ['d073d5000000'] };
  expect(browserSelection(readCompanionDevices(EMAIL), settings).lifx).toEqual(['d073d5000000']);
  expect(readUnsavedPreferences(EMAIL)).toBeNull();
  expect(document.documentElement.dataset.flag).toBe('green');
  expect(document.title).toBe(APP_NAME);
});
