// The jest config of `npm run test:mutation` (stryker.config.mjs): one flat project, so that
// Stryker's test environment (per-test coverage) wraps every suite, running only the fast tests of
// the files Stryker mutates. Workspace packages are mapped to the sources under rootDir: in
// Stryker's sandbox copy, node_modules/@reelstream/* are links to the original, unmutated tree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { preset } from '../jest.preset.mjs';

const root = join(import.meta.dirname, '..');

/** `^@reelstream/name(/sub)?$` → the file its package.json exports, under <rootDir>. */
function workspaceModules() {
  const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const mapped = {};
  for (const folder of workspaces) {
    const { name, exports } = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
    if (!exports) continue;
    for (const [subpath, target] of Object.entries(typeof exports === 'string' ? { '.': exports } : exports)) {
      const specifier = subpath === '.' ? name : `${name}/${subpath.slice(2)}`;
      mapped[`^${specifier.replace(/[/.-]/g, '\\$&')}$`] = `<rootDir>/${folder}/${target.replace(/^\.\//, '')}`;
    }
  }
  return mapped;
}

/** The tests that guard the mutated files: unit and in-process integration tests, no started platforms. */
const MUTATION_TESTS = [
  'libs/bonus/domain/test/*.spec.ts',
  'libs/wallet/domain/test/*.spec.ts',
  'libs/game/domain/src/**/*.unit.spec.ts',
  'libs/money/src/*.spec.ts',
  'libs/sandbox/service/test/{signature.unit,signature-schemes.int,sandbox-wallet.int,sandbox-faults.int,sandbox-ledger.int}.spec.ts',
  'libs/wallet/adapters/test/{callback-headers,webhook-sender,operator-post-client,operator-post-tracing,reconciliation-read-model}.int.spec.ts',
  'libs/gateway/service/test/bonus-call-routes.unit.spec.ts',
  'libs/gateway/service/src/reconciliation/*.unit.spec.ts',
  'libs/gateway/service/test/{reconciliation-lists,reconciliation-projection,reconciliation-tenancy,webhook-letters-tenancy}.int.spec.ts',
  'libs/bonus/adapters/test/*.spec.ts',
  'libs/bonus/application/test/read-side.unit.spec.ts',
  'libs/game/application/src/sessions/{sessions,active-bonus}.unit.spec.ts',
  'libs/platform/eventsourcing/test/shards.unit.spec.ts',
];

export default {
  ...preset,
  rootDir: root,
  displayName: 'mutation',
  testMatch: MUTATION_TESTS.map((glob) => `<rootDir>/${glob}`),
  moduleNameMapper: { ...workspaceModules(), ...preset.moduleNameMapper },
  roots: ['<rootDir>/libs'],
  // Statistical RTP bounds over 200,000 spins per model: through mutated slot code they outlast every
  // mutant's timeout, and a bound that holds within its tolerance cannot tell a mutant from noise.
  // The exact checks (theoretical RTP, paytables, round replay) stay in.
  testPathIgnorePatterns: ['/node_modules/', '/simulate\\.unit\\.spec\\.ts$'],
  maxWorkers: 1,
  // A mutant run loads only the test files of the tests that cover it: config/stryker-test-files.cjs.
  testEnvironment: join(root, 'config/stryker-test-environment.cjs'),
  testSequencer: join(root, 'config/stryker-test-sequencer.cjs'),
};
