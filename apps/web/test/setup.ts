import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { paced } from '../../../scripts/test-pace.mjs';
import { resetAppConfig } from '../src/api/app-config';
import { clearCompanionDevices } from '../src/companion/companion-store';
import { forgetUnsavedPreferences } from '../src/settings/preferences-save-state';
import { DEFAULT_ACCENT_FLAG, setFlagAccent } from '../src/ui/flag-accent';
import { setFlagTitleText } from '../src/ui/use-document-title';

// findBy… and waitFor give up after 1 s by default: a first render of a lazily loaded screen takes
// longer than that on a loaded 2-core machine running three test files at once. A test that waits
// for something that never comes still fails, only later. Stretched on a slower host (decision 054).
configure({ asyncUtilTimeout: paced(5_000) });

// jsdom does not implement scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};

// jsdom has no ResizeObserver; Radix Slider and Tooltip measure themselves with it.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// The files of a worker share one module graph (vitest.config.ts, isolate: false): what a module
// keeps beyond the page's storage is reset too, or a file's test reads what another file left.
afterEach(() => {
  cleanup();
  window.localStorage.clear();
  resetAppConfig();
  clearCompanionDevices();
  forgetUnsavedPreferences();
  setFlagAccent(DEFAULT_ACCENT_FLAG);
  setFlagTitleText(null);
});
