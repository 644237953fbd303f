// @ts-check
/**
 * `npm run test:mutation`: StrykerJS over the files where money and tenancy are decided, with the
 * fast tests of config/jest.stryker.mjs. Incremental: config/stryker-incremental.json (committed)
 * holds the last run's results, so only mutants whose code or covering tests changed run again.
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  packageManager: 'npm',
  testRunner: 'jest',
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  jest: { projectType: 'custom', configFile: 'config/jest.stryker.mjs', enableFindRelatedTests: true },
  checkers: ['typescript'],
  tsconfigFile: 'config/tsconfig.stryker.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  coverageAnalysis: 'perTest',
  incrementalFile: 'config/stryker-incremental.json',
  mutate: [
    // Domain rules: the bonus, the wallet's callbacks, the game's rounds and sessions, money.
    'libs/bonus/domain/src/**/*.ts',
    'libs/wallet/domain/src/**/*.ts',
    'libs/game/domain/src/{coins,win-cap}.ts',
    'libs/game/domain/src/{round,session}/**/*.ts',
    'libs/money/src/**/*.ts',
    // The operator sandbox's check of the platform's signatures.
    'libs/sandbox/service/src/signature.ts',
    // Signed callbacks and webhooks.
    'libs/wallet/adapters/src/{http-operator-wallet,http-webhook-sender}.ts',
    // Tenancy of the reads: the gateway's, the ledger's queries and read model, the game's active bonus.
    'libs/gateway/service/src/routes/bonus-call-routes.ts',
    'libs/gateway/service/src/reconciliation/reconciliation-reader.ts',
    'libs/bonus/application/src/bonus-queries.ts',
    'libs/bonus/adapters/src/read-model/sqlite-bonus-read-model.ts',
    'libs/game/application/src/sessions/active-bonus.ts',
    '!**/index.ts',
    '!**/*.spec.ts',
  ],
  // A static mutant (a constant evaluated once, at import) needs every test, run on a fresh module
  // registry: most of them are the currency table; they are left out of the score.
  ignoreStatic: true,
  thresholds: { high: 90, low: 80, break: null },
  reporters: ['clear-text', 'progress-append-only', 'html'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  concurrency: 2,
  timeoutMS: 10_000,
  // The first run of every test with per-test coverage, on a busy machine.
  dryRunTimeoutMinutes: 30,
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
