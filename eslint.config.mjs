// Lint rules for the whole workspace. The module-boundary rule is the architecture in code:
// domain libraries stay pure, adapters stay at the edge (docs/architecture.md "Layout: contexts and layers").
import { builtinModules } from 'node:module';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const io = [
  'kafkajs',
  '@eventstore/db-client',
  'better-sqlite3',
  'express',
  'got',
  'undici',
  'helmet',
  '@opentelemetry/*',
  'node:*',
  'fs',
  'http',
  'https',
  'net',
  'child_process',
];

// The pure libraries: kernel, contracts and domains (every spec rule lives in one of them).
const PURE_LIBRARY_SOURCES = ['libs/money/src/**/*.ts', 'libs/contracts/src/**/*.ts', 'libs/*/domain/src/**/*.ts'];
// What they may take from node:crypto: digests (the registration hash, token digests), the HMAC of the
// callback signature and the constant-time comparison of bearer tokens. All three are functions of their inputs
// alone; randomness (randomBytes, randomUUID, …) and the key store are not, so they stay out.
const PURE_HASHING = ['createHash', 'createHmac', 'timingSafeEqual'];
// `node:<any>` but node:crypto, and every built-in by its bare name (`fs`, `crypto`, `fs/promises`), not `./events/…`.
const BARE_BUILTINS = builtinModules
  .filter((name) => !name.startsWith('node:'))
  .map((name) => name.replace(/[/.]/g, '\\$&'));
const NODE_BUILTIN_EXCEPT_CRYPTO = `^(?:node:(?!crypto$)|(?:${BARE_BUILTINS.join('|')})(?:/|$))`;
const NOT_PURE = 'A pure library (money, contracts, */domain) does no I/O: of node:* it may use only hashing and HMAC.';

// A string that starts like a SQL statement (upper-case keywords, as every statement of the tree is written).
const SQL_STATEMENT = String.raw`/^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\s/`;
const SQL_IN_SERVICE = 'A service lib holds no SQL: put the statement in an adapter (libs/<context>/adapters).';

export default [
  {
    ignores: [
      '**/*.json',
      '**/node_modules/**',
      '**/dist/**',
      '**/tmp/**',
      '**/coverage/**',
      '**/test-output/**',
      '.nx/**',
      'data/**',
      '.stryker-tmp/**',
      'reports/**',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Money code must never drop a promise on the floor.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          // Adapters' spec files run the port contract suites of @reelstream/testing, whose child-process workers open
          // the adapters again through @reelstream/platform-backends: a test-only cycle, not a runtime one.
          ignoredCircularDependencies: [['@reelstream/testing', '*']],
          depConstraints: [
            { sourceTag: 'type:kernel', onlyDependOnLibsWithTags: ['type:kernel'], bannedExternalImports: io },
            {
              sourceTag: 'type:contracts',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts'],
              bannedExternalImports: io,
            },
            {
              sourceTag: 'type:domain',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts', 'type:domain'],
              bannedExternalImports: io,
            },
            {
              sourceTag: 'type:ports',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts', 'type:ports'],
              bannedExternalImports: io,
            },
            {
              sourceTag: 'type:util',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:ports', 'type:util'],
              bannedExternalImports: io,
            },
            {
              // The command handler and catch-up runner: over the ports only; hashing ids needs node:crypto.
              sourceTag: 'type:eventsourcing',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts', 'type:ports', 'type:eventsourcing'],
              bannedExternalImports: [
                ...io.filter((name) => name !== 'node:*'),
                'node:fs',
                'node:http',
                'node:https',
                'node:net',
                'node:child_process',
              ],
            },
            {
              sourceTag: 'type:application',
              onlyDependOnLibsWithTags: [
                'type:kernel',
                'type:contracts',
                'type:domain',
                'type:ports',
                'type:util',
                'type:eventsourcing',
                'type:application',
              ],
              bannedExternalImports: ['kafkajs', '@eventstore/db-client', 'better-sqlite3', 'express', 'got', 'undici'],
            },
            {
              sourceTag: 'type:telemetry',
              onlyDependOnLibsWithTags: ['type:kernel', 'type:contracts', 'type:ports', 'type:telemetry'],
            },
            {
              sourceTag: 'type:adapter',
              onlyDependOnLibsWithTags: [
                'type:kernel',
                'type:contracts',
                'type:domain',
                'type:ports',
                'type:util',
                'type:telemetry',
                'type:eventsourcing',
                'type:application',
                'type:adapter',
              ],
            },
            {
              // Listed rather than `notDependOnLibsWithTags`: that check is transitive and would follow test-only edges.
              sourceTag: 'type:service',
              onlyDependOnLibsWithTags: [
                'type:kernel',
                'type:contracts',
                'type:domain',
                'type:ports',
                'type:util',
                'type:telemetry',
                'type:eventsourcing',
                'type:application',
                'type:adapter',
                'type:service',
              ],
              // Services are edges only: SQLite and the wallet's HTTP client are adapters' business.
              bannedExternalImports: ['better-sqlite3', 'got', 'undici'],
            },
            { sourceTag: 'type:testing', notDependOnLibsWithTags: ['type:app'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['*'] },
          ],
        },
      ],
    },
  },
  {
    // Nor a SQL statement: a service lib wires, routes and answers; queries live in adapters.
    files: [
      'libs/*/service/src/**/*.ts',
      'libs/sandbox/conformance/src/**/*.ts',
      'libs/platform/http/src/**/*.ts',
      'libs/platform/runtime/src/**/*.ts',
    ],
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: `Literal[value=${SQL_STATEMENT}]`, message: SQL_IN_SERVICE },
        { selector: `TemplateElement[value.raw=${SQL_STATEMENT}]`, message: SQL_IN_SERVICE },
      ],
    },
  },
  {
    // Nx's boundary rule does not see Node's built-in modules (they are not in the project graph): named here.
    files: PURE_LIBRARY_SOURCES,
    ignores: ['**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'node:crypto', allowImportNames: PURE_HASHING, message: NOT_PURE }],
          patterns: [{ regex: NODE_BUILTIN_EXCEPT_CRYPTO, message: NOT_PURE }],
        },
      ],
      'no-restricted-globals': ['error', { name: 'crypto', message: NOT_PURE }],
    },
  },
  {
    // The platform knows no bounded context (config read the catalog through game-domain). The one
    // exception is the shared answer to a bonus-ledger timeout, an HTTP edge both APIs give the same way.
    files: ['libs/platform/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts', 'libs/platform/http/src/ledger-unavailable.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '@reelstream/bonus-*',
                '@reelstream/game-*',
                '@reelstream/wallet-*',
                '@reelstream/sandbox-*',
                '@reelstream/service-*',
              ],
              message: 'A platform lib may not depend on a bounded context.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'bench/**/*.ts', 'scripts/**/*.ts', '**/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': 'off',
    },
  },
  {
    files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
];
