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
const PURE_LIBRARY_SOURCES = [
  'libs/errors/src/**/*.ts',
  'libs/money/src/**/*.ts',
  'libs/contracts/src/**/*.ts',
  'libs/*/domain/src/**/*.ts',
];
// What they may take from node:crypto: digests (the registration hash, token digests), the HMAC of the
// callback signature and the constant-time comparison of bearer tokens. All three are functions of their inputs
// alone; randomness (randomBytes, randomUUID, …) and the key store are not, so they stay out.
const PURE_HASHING = ['createHash', 'createHmac', 'timingSafeEqual'];
// `node:<any>` but node:crypto, and every built-in by its bare name (`fs`, `crypto`, `fs/promises`), not `./events/…`.
const BARE_BUILTINS = builtinModules
  .filter((name) => !name.startsWith('node:'))
  .map((name) => name.replace(/[/.]/g, '\\$&'));
const NODE_BUILTIN_EXCEPT_CRYPTO = `^(?:node:(?!crypto$)|(?:${BARE_BUILTINS.join('|')})(?:/|$))`;
const NOT_PURE =
  'A pure library (errors, money, contracts, */domain) does no I/O: of node:* it may use only hashing and HMAC.';

// A string that starts like a SQL statement (upper-case keywords, as every statement of the tree is written).
const SQL_STATEMENT = String.raw`/^\s*(SELECT|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|PRAGMA|WITH)\s/`;
const SQL_IN_SERVICE = 'A service lib holds no SQL: put the statement in an adapter (libs/<context>/adapters).';

// Bounded contexts (docs/architecture.md "The dependency rule across contexts"). Every project has one `scope:*`
// tag: its context, `scope:shared` (contracts, money, platform/*, testing) or `scope:app`. A context's lib may
// depend on its own context, on shared code, and on another context only through that context's API: the libs
// tagged `api:<context>` (its application lib, and the bonus ledger's bus client), which re-exports what others may
// read of its domain (the wallet's `DeliveryPolicies`). A few domain and adapter libs carry `published:<package>`
// because another context has a reason to read them; each context below names the ones it may read and why
// (apps/platform/test/scope-tags.unit.spec.ts checks the tags against the folders and that every scope is here). Checked per import, not transitively (`notDependOnLibsWithTags` would follow the
// tests' edges too). Test files are not held to it (the block for spec and test files turns the rule off): a
// context's tests stand up the other contexts' services and adapters as fixtures, and only production edges
// are the architecture.
const ANY_CONTEXT_API = 'api:*';
const SHARED = 'scope:shared';
const CONTEXT_SCOPES = [
  // The catalog (config/catalog.json: games, providers, bet levels) is shared language, in contracts; only the
  // game engine is the game domain's.
  { sourceTag: 'scope:bonus', onlyDependOnLibsWithTags: ['scope:bonus', SHARED, ANY_CONTEXT_API] },
  { sourceTag: 'scope:game', onlyDependOnLibsWithTags: ['scope:game', SHARED, ANY_CONTEXT_API] },
  {
    // A bet is checked against its round's `RoundStarted`, rebuilt with the game's `stakeRequestOf` (ADR 0015):
    // a domain rule over another domain's events, which no application lib can hand a domain lib.
    sourceTag: 'scope:wallet',
    onlyDependOnLibsWithTags: ['scope:wallet', SHARED, ANY_CONTEXT_API, 'published:game-domain'],
  },
  {
    // The round audit replays rounds with the game engine (`replayRound`, `capWin`).
    sourceTag: 'scope:analytics',
    onlyDependOnLibsWithTags: ['scope:analytics', SHARED, ANY_CONTEXT_API, 'published:game-domain'],
  },
  {
    // The conformance kit calls an operator's wallet with the dispatcher's own client (`WalletClient`).
    sourceTag: 'scope:sandbox',
    onlyDependOnLibsWithTags: ['scope:sandbox', SHARED, ANY_CONTEXT_API, 'published:wallet-adapters'],
  },
  {
    // The gateway owns no state: it is the operator's HTTP edge of registrations and reconciliation, and reads the
    // other contexts through their APIs only (the reconciliation read model it serves is the wallet application's
    // port, opened by the wallet adapters its app hands it). No other context may import the gateway.
    sourceTag: 'scope:gateway',
    onlyDependOnLibsWithTags: ['scope:gateway', SHARED, ANY_CONTEXT_API],
  },
  {
    // Shared code knows no context, but for one edge: the stake sources of libs/testing replay a stored
    // round with the game engine.
    sourceTag: 'scope:shared',
    onlyDependOnLibsWithTags: [SHARED, 'published:game-domain'],
  },
  // The apps wire the services of every context together (and load the catalog through game-adapters).
  { sourceTag: 'scope:app', onlyDependOnLibsWithTags: ['*'] },
];

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
            // The kernel (errors, money): plain TypeScript, below the zod schemas of contracts.
            {
              sourceTag: 'type:kernel',
              onlyDependOnLibsWithTags: ['type:kernel'],
              bannedExternalImports: [...io, 'zod'],
            },
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
            ...CONTEXT_SCOPES,
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
    // The platform knows no bounded context (config read the catalog through game-domain).
    files: ['libs/platform/*/src/**/*.ts'],
    ignores: ['**/*.spec.ts'],
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
