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
    // Money rules: the bonus's free spins, its win cap and the registration's request hash; the
    // wallet's callback bodies; the game's coins and win cap; amounts.
    'libs/bonus/domain/src/{decide-free-spin,free-spin-win,request-hash}.ts',
    'libs/wallet/domain/src/{signed-content,callback-body}.ts',
    'libs/game/domain/src/{coins,win-cap}.ts',
    'libs/money/src/amount.ts',
    // Signatures: the dispatcher's callbacks and webhooks, and the sandbox's check of them.
    'libs/wallet/adapters/src/{http-operator-wallet,http-webhook-sender}.ts',
    'libs/sandbox/service/src/signature.ts',
    // Tenancy of the reads: the gateway's, the ledger's queries and read model, the game's active bonus.
    'libs/gateway/service/src/routes/bonus-call-routes.ts',
    'libs/bonus/application/src/bonus-queries.ts',
    'libs/bonus/adapters/src/read-model/sqlite-bonus-read-model.ts',
    'libs/game/application/src/sessions/active-bonus.ts',
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
