import path from 'node:path';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Import direction between workspaces: core below lights below the apps; product data beside
// core; the simulators only for demo and test wiring; web never reaches the server. Each
// workspace lists what it may import; every other workspace (including ones added later under
// packages/ or apps/, and bench/ and e2e/) is off limits. Rows for packages/contract and
// apps/companion are ready for when they exist.
const MAY_IMPORT = {
  'packages/core': [],
  'packages/contract': ['packages/core'],
  'packages/data': ['packages/core'],
  'packages/lights': ['packages/core'],
  'packages/sims': ['packages/core', 'packages/data'],
  'packages/f1-live': ['packages/core'],
  'apps/server': [
    'packages/core',
    'packages/lights',
    'packages/data',
    'packages/contract',
    'packages/f1-live',
  ],
  'apps/web': ['packages/core', 'packages/lights', 'packages/contract'],
  'apps/companion': ['packages/core', 'packages/lights', 'packages/contract', 'packages/f1-live'],
};
/**
 * Wiring that may also start the simulators: tests, and the server's demo mode. Core, data,
 * contract and web tests may not (the web app's tests stub its API at the boundary instead).
 */
const SIMS_WIRING = {
  'packages/lights': ['**/*.test.ts', 'test/**'],
  'packages/f1-live': ['**/*.test.ts', 'test/**'],
  'apps/server': ['**/*.test.ts', 'test/**', 'src/demo/**'],
  'apps/companion': ['**/*.test.{ts,tsx}', 'test/**'],
};

function boundary(workspace, allowed) {
  const here = import.meta.dirname;
  return [
    'error',
    {
      basePath: here,
      zones: [
        {
          target: `${workspace}/**`,
          from: ['packages/*/**', 'apps/*/**', 'bench/**', 'e2e/**'],
          except: [...new Set([workspace, ...allowed, '**/node_modules'])].map((dir) =>
            path.join(here, dir, '**'),
          ),
          message: `${workspace} may import ${allowed.length ? allowed.join(', ') : 'no other workspace'}.`,
        },
      ],
    },
  ];
}

const boundaries = Object.entries(MAY_IMPORT).flatMap(([workspace, allowed]) => [
  {
    files: [`${workspace}/**/*.{ts,tsx}`],
    rules: { 'import-x/no-restricted-paths': boundary(workspace, allowed) },
  },
  ...(SIMS_WIRING[workspace]
    ? [
        {
          files: SIMS_WIRING[workspace].map((glob) => `${workspace}/${glob}`),
          rules: { 'import-x/no-restricted-paths': boundary(workspace, [...allowed, 'packages/sims']) },
        },
      ]
    : []),
]);

/**
 * `max-lines-per-function` counts every line from a function's first to its last, blank lines and
 * comments included (what a reader scrolls through), the functions inside it included.
 */
const FUNCTION_LINES = (max) => ({ max, skipBlankLines: false, skipComments: false, IIFEs: true });

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/coverage/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/artifacts/**',
      // Git-ignored build cache of the companion's packaging (bundled update tools, a Node binary).
      'apps/companion/.cache/**',
      // The types of a plain-JavaScript script, for the tests that import it (scripts/entry-bundle.mjs):
      // no workspace's program holds them, and there is nothing in them to lint.
      'scripts/*.d.mts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript sources, imported as `./file.js` (server, packages) or without extension (web).
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: { allowDefaultProject: ['vitest.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // Fastify plugins and handlers, and implementations of async interfaces (bus, tickets,
      // simulators), are async by contract even when their body awaits nothing; the promise
      // hazards are caught by the two rules above.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/order': [
        'error',
        {
          groups: ['builtin', 'external', 'internal', 'parent', 'sibling', 'index'],
          'newlines-between': 'never',
          alphabetize: { order: 'asc', caseInsensitive: true },
        },
      ],
      'import-x/no-duplicates': 'error',
    },
  },
  {
    // Plain JavaScript (this file, scripts) belongs to no tsconfig: lint it without types.
    files: ['**/*.{js,mjs,cjs}'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tests read untyped JSON answers (`res.json()`, fixtures) on purpose and assert on them;
    // the no-unsafe-* rules stay on for production sources.
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.{ts,tsx}', 'e2e/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Vitest shares one module graph per worker (isolate: false, decision 030): a module mocked
      // in one file would stay mocked, or never be, for the next. Swap what the code takes instead.
      'no-restricted-properties': [
        'error',
        ...['mock', 'doMock', 'unmock', 'resetModules'].map((property) => ({
          object: 'vi',
          property,
          message: 'Test files share their module graph: pass a test double in instead (decision 030).',
        })),
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Tests never reach the bundle: they check what the app writes against the contract's schemas.
    files: ['apps/web/**/*.{ts,tsx}'],
    ignores: ['apps/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@flaglight/contract',
              allowTypeImports: true,
              message: 'Types only: its values bring zod and every route schema into the landing bundle.',
            },
          ],
        },
      ],
    },
  },
  {
    // packages/core is pure: it runs in the browser, the server and the agent alike.
    files: ['packages/core/src/**/*.ts'],
    ignores: ['packages/core/src/**/*.test.ts', 'packages/core/src/cli/**'],
    languageOptions: { globals: {} },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'http', 'https', 'net', 'os', 'child_process'],
              message: 'packages/core is pure: no I/O.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'packages/core is pure: no I/O.' },
        { name: 'process', message: 'packages/core is pure: configuration comes in as parameters.' },
        { name: 'setTimeout', message: 'packages/core is pure: time is a parameter.' },
        { name: 'setInterval', message: 'packages/core is pure: time is a parameter.' },
        { name: 'window', message: 'packages/core is pure.' },
        { name: 'document', message: 'packages/core is pure.' },
        { name: 'localStorage', message: 'packages/core is pure.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']",
          message: 'packages/core is pure: pass { now } in.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'packages/core is pure: pass { now } in.',
        },
      ],
    },
  },
  {
    // Only repositories touch the query builders: routes call services, services call repositories.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/**/repository.ts',
      'apps/server/src/**/*-repository.ts',
      'apps/server/src/db/**',
      'apps/server/src/**/*.test.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|transaction)$/]',
          message: 'SQL lives in repositories',
        },
      ],
    },
  },
  {
    // packages/lights runs in the browser: no Node built-ins outside its tests and the desktop
    // companion's LAN drivers (src/lan, exported as `@flaglight/lights/lan`).
    files: ['packages/lights/src/**/*.ts'],
    ignores: ['packages/lights/src/**/*.test.ts', 'packages/lights/src/lan/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'packages/lights runs in the browser: no Node built-ins.' },
          ],
        },
      ],
    },
  },
  ...boundaries,
  // A function a reader can hold in their head (decision 043): at most 150 lines, blank lines and
  // comments counted. A longer one is split by job into named pieces.
  {
    files: ['**/*.{ts,tsx}'],
    rules: { 'max-lines-per-function': ['error', FUNCTION_LINES(150)] },
  },
  // Tests may go to 200: a describe holds its cases in one place. So may the simulators, whose
  // fakes answer a whole protocol from one closure.
  {
    files: ['**/*.test.{ts,tsx}', '**/test/**/*.{ts,tsx}', 'e2e/**/*.ts', 'packages/sims/src/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', FUNCTION_LINES(200)] },
  },
  // Exceptions, each with its reason: none today. Name one here, with why, before raising a limit.
);
