import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from '@playwright/test';
import suite from './playwright.config';

// Renders the docs' pictures of the looks presets (docs/flags-and-effects.md): the suite's server,
// browser and options, its own folder, one project, and no report for CI's summary to count.
//   npx playwright test -c e2e/docs-pictures.config.ts
export default defineConfig({
  ...suite,
  testDir: path.join(path.dirname(fileURLToPath(import.meta.url)), 'docs-pictures'),
  projects: [{ name: 'docs-pictures' }],
  reporter: [['list']],
});
