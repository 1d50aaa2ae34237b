import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { resetAppConfig } from '../src/api/app-config';

// jsdom does not implement scrolling; the router's scroll restoration calls it.
window.scrollTo = () => {};

// jsdom has no ResizeObserver; Radix Slider and Tooltip measure themselves with it.
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  resetAppConfig();
});
