// Proves the import-direction zones of eslint.config.js: lints one-line files placed where an
// import crosses a forbidden boundary (each must be reported) and where it is allowed (none may
// be). Part of `npm run lint`; exits 1 on any mismatch.
import path from 'node:path';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '..');

/** [file that would hold the import, import statement, expected: 'error' | 'ok'] */
const CASES = [
  ['packages/core/src/boundary.ts', "import '@flaglight/lights';", 'error'],
  ['packages/core/src/boundary.ts', "import type { RaceControlRow } from '@flaglight/data';", 'error'],
  ['packages/lights/src/boundary.ts', "import '@flaglight/sims';", 'error'],
  ['packages/data/src/boundary.ts', "import '@flaglight/lights';", 'error'],
  ['packages/contract/src/boundary.ts', "import '@flaglight/lights';", 'error'],
  ['packages/sims/src/boundary.ts', "import '../../../apps/server/src/config.js';", 'error'],
  ['apps/web/src/boundary.ts', "import '../../server/src/config.js';", 'error'],
  ['apps/web/src/boundary.ts', "export const load = () => import('@flaglight/sims');", 'error'],
  ['apps/web/src/boundary.test.ts', "import '@flaglight/sims';", 'error'],
  ['packages/core/src/boundary.test.ts', "import '@flaglight/sims';", 'error'],
  ['apps/server/src/boundary.ts', "import '@flaglight/sims';", 'error'],
  ['apps/server/src/live/boundary.ts', "import type { OpenF1Sim } from '@flaglight/sims';", 'error'],
  ['apps/server/src/boundary.ts', "import '../../../e2e/fixtures.js';", 'error'],
  ['apps/companion/src/boundary.ts', "import '../../server/src/config.js';", 'error'],
  ['apps/companion/src/boundary.ts', "import '@flaglight/sims';", 'error'],
  ['packages/lights/src/boundary.ts', "import '@flaglight/core';", 'ok'],
  ['packages/sims/src/boundary.ts', "import '@flaglight/data';", 'ok'],
  ['apps/web/src/boundary.ts', "import '@flaglight/lights';", 'ok'],
  ['apps/server/src/boundary.ts', "import '@flaglight/data';", 'ok'],
  ['apps/server/src/demo/boundary.ts', "import '@flaglight/sims';", 'ok'],
  ['apps/server/test/boundary.test.ts', "import '@flaglight/sims';", 'ok'],
  ['packages/lights/src/boundary.test.ts', "import '@flaglight/sims';", 'ok'],
  ['apps/companion/src/boundary.ts', "import '@flaglight/lights';", 'ok'],
];

const RULE = 'import-x/no-restricted-paths';
const eslint = new ESLint({
  cwd: root,
  // Only the zones matter here: no type information, no other rule.
  overrideConfig: { languageOptions: { parserOptions: { projectService: false, project: false } } },
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

let failures = 0;
for (const [file, code, expected] of CASES) {
  const [result] = await eslint.lintText(`${code}\n`, { filePath: path.join(root, file) });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal);
  const reported = messages.some((m) => m.ruleId === RULE);
  if (fatal || reported !== (expected === 'error')) {
    failures += 1;
    const why = fatal ? fatal.message : reported ? 'reported, but allowed' : 'not reported';
    console.error(`lint-boundaries: ${file}: ${code} -> ${why}`);
  }
}
if (failures > 0) process.exit(1);
console.log(`lint-boundaries: ${CASES.length} imports across workspaces judged as expected`);
