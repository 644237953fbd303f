/**
 * The ways the e2e suite and the benches run the real platform, on free ports and a temp DATA_DIR:
 * - one process: `node --import tsx apps/platform/src/main.ts` (what `npm start` runs), the
 *   sandbox inside it as the demo operator's wallet;
 * - the same with the operator's wallet apart: the sandbox in a process of its own, called by an
 *   operator from OPERATORS_JSON (`bench:e2e --wallet-apart`);
 * - the same calling a wallet the test itself serves (`oneProcessCalling`), to see how the platform
 *   takes an operator's wallet that answers otherwise than the sandbox;
 * - four processes from the built entries (`node dist/…/main.js`): gateway, bonus-ledger,
 *   wallet-dispatcher and game-server sharing one SQLite file, plus the operator sandbox as a
 *   fifth process standing in for the operator, with an operator from OPERATORS_JSON.
 * `crash()` SIGKILLs every platform process and starts it again on the same data.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_OPERATOR } from '@reelstream/platform-config';
import { buildApps } from '../../../../scripts/build-apps.js';
import { AppProcess, REPOSITORY_ROOT } from './app-process.js';
import type { OperatorAccount } from './clients.js';

export interface RunningPlatform {
  readonly dataDir: string;
  /** Where the events are (`EVENT_STORE_URL`), when not in the SQLite file of `dataDir`. */
  readonly eventStoreUrl?: string;
  readonly operator: OperatorAccount;
  /** Current URLs: a restart on port 0 moves them. */
  readonly gatewayUrl: string;
  readonly gameUrl: string;
  readonly sandboxUrl: string;
  /** What the process printed after its JSON logs (one-process topology only). */
  readonly banner: string | undefined;
  crash(): Promise<void>;
  /** The signal to every process (Ctrl-C is SIGINT); resolves with their exit codes. */
  stop(signal: NodeJS.Signals): Promise<(number | null)[]>;
  /** The running processes' ids by app (`platform`, or one per service and `operator-sandbox`): the benches read their CPU time. */
  pids(): Record<string, number | undefined>;
}

/** What a caller may add to how the processes start: the benches quiet the log and profile. */
interface StartOptions {
  /** Variables set on top of the topology's own. */
  env?: Record<string, string>;
  /** Arguments to node before the entry, by app name (e.g. `--cpu-prof`). */
  nodeArgs?: (app: string) => readonly string[];
  /**
   * Another checkout to run the platform from (its own `npm ci` done): the same client then drives
   * another commit's code (`bench:e2e:against`). One-process topologies only.
   */
  root?: string;
}

export interface Topology {
  readonly name: string;
  start(dataDir: string, options?: StartOptions): Promise<RunningPlatform>;
}

/** Short timeouts, so rounds a crash left open are resolved within seconds. */
const COMMON_ENV = {
  OTEL_SDK_DISABLED: 'true',
  LOG_LEVEL: 'info',
  OPERATORS_JSON: '',
  OPERATORS_FILE: '',
  WALLET_TIMEOUT_MS: '3500',
  ROUND_RESOLVE_AFTER_MS: '4000',
};

/** The all-in-one platform's INSTANCE_ID: it names the ledger's read model file (`bonus-ledger-read-{id}.db`). */
export const PLATFORM_INSTANCE_ID = 'platform-e2e';

const text = (value: unknown): string => {
  if (typeof value !== 'string') throw new Error(`expected a URL in the ready line, got ${JSON.stringify(value)}`);
  return value;
};

/** The URLs the all-in-one platform's banner names, as its ready line would. */
/** As long as `AppProcess.ready` waits: a start compiles the platform with tsx, slow on a busy machine. */
const START_TIMEOUT_MS = 60_000;

async function urlsFromBanner(process: AppProcess): Promise<Record<string, unknown>> {
  const urlAfter = async (label: string) =>
    /(http:\/\/\S+)/.exec(
      await process.waitForLine((line) => line.trimStart().startsWith(label), START_TIMEOUT_MS),
    )?.[1];
  return {
    gatewayUrl: await urlAfter('Operator API'),
    gameUrl: await urlAfter('Game launch host'),
    sandboxUrl: await urlAfter('Operator sandbox'),
  };
}

const E2E_OPERATOR: OperatorAccount = {
  id: 'e2e',
  token: 'e2e-api-token-0123456789abcdef',
  currency: 'EUR',
  timeZone: 'Asia/Seoul',
};

export const E2E_SIGNING_SECRET = 'e2e-signing-secret-0123456789';

function operatorsJson(callbackUrl: string): string {
  return JSON.stringify([
    {
      id: E2E_OPERATOR.id,
      name: 'E2E Casino',
      apiToken: E2E_OPERATOR.token,
      callbackUrl,
      signingSecret: E2E_SIGNING_SECRET,
      currency: E2E_OPERATOR.currency,
      timeZone: E2E_OPERATOR.timeZone,
    },
  ]);
}

/**
 * The operator's wallet apart: the sandbox from its own main (through tsx) in a process of its own, and the
 * platform's operator from OPERATORS_JSON calling it, as an operator's wallet is reached in production.
 */
interface WalletApart {
  readonly url: string;
  readonly process: AppProcess;
}

async function startWalletApart(
  /** The sandbox's own DATA_DIR. */
  dataDir: string,
  options: StartOptions,
  entry = join('apps', 'operator-sandbox', 'src', 'main.ts'),
): Promise<WalletApart> {
  mkdirSync(dataDir, { recursive: true });
  const process = new AppProcess(
    'operator-sandbox',
    entry,
    {
      ...COMMON_ENV,
      DATA_DIR: dataDir,
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      // The sandbox reads the operator's secret and currency; the callback URL is its own, known once it listens.
      OPERATORS_JSON: operatorsJson('http://127.0.0.1:9/wallet/e2e'),
      ...options.env,
      LOG_LEVEL: 'info',
    },
    options.nodeArgs?.('operator-sandbox') ?? [],
    options.root,
  );
  return { url: text((await process.ready())['url']), process };
}

/**
 * The all-in-one platform from `entry` (a main that runs `startPlatform`); with `walletApart`, its operator's
 * wallet is a sandbox in another process, with `callbackUrl` a wallet the caller serves (the platform's own
 * sandbox still starts, and nobody calls it).
 */
const platformProcess = (
  name: string,
  entry: string,
  walletApart = false,
  callbackUrl?: string,
  /** Variables of the topology itself (e.g. its BUS_URL), under the caller's. */
  topologyEnv: Record<string, string> = {},
): Topology => ({
  name,
  async start(dataDir, options = {}) {
    // Its own directory: the platform's in-process sandbox keeps its file in dataDir.
    const wallet = walletApart ? await startWalletApart(join(dataDir, 'operator-wallet'), options) : undefined;
    const callbacks = wallet ? `${wallet.url}/wallet/${E2E_OPERATOR.id}` : callbackUrl;
    const env = {
      ...COMMON_ENV,
      INSTANCE_ID: PLATFORM_INSTANCE_ID,
      DATA_DIR: dataDir,
      GATEWAY_PORT: '0',
      GAME_PORT: '0',
      SANDBOX_PORT: '0',
      ...(callbacks && { OPERATORS_JSON: operatorsJson(callbacks) }),
      ...topologyEnv,
      ...options.env,
    };
    const nodeArgs = options.nodeArgs?.('platform') ?? [];
    // Below info there is no ready line (the benches run at warn): the banner, printed at any level, names the URLs.
    const logsReady = !['warn', 'error', 'silent'].includes(env.LOG_LEVEL);
    const readyOf = (current: AppProcess) => (logsReady ? current.ready() : urlsFromBanner(current));
    const bannerOf = async (current: AppProcess) => {
      await current.waitForLine((line) => line.startsWith('Ctrl-C stops the platform'), START_TIMEOUT_MS);
      const readyAt = current.lines.findIndex((line) => line.includes('"msg":"ready"'));
      return current.lines.slice(readyAt + 1).join('\n');
    };
    // A start that never gets ready is killed, with the wallet started for it, so no process outlives the test.
    const started = async (current: AppProcess) => {
      try {
        return { ready: await readyOf(current), banner: await bannerOf(current) };
      } catch (error) {
        await current.kill('SIGKILL');
        if (wallet) await wallet.process.kill('SIGKILL');
        throw error;
      }
    };
    let process = new AppProcess('platform', entry, env, nodeArgs, options.root);
    let { ready, banner } = await started(process);
    return {
      dataDir,
      ...(topologyEnv['EVENT_STORE_URL'] && { eventStoreUrl: topologyEnv['EVENT_STORE_URL'] }),
      operator: callbacks
        ? E2E_OPERATOR
        : {
            id: DEMO_OPERATOR.id,
            token: DEMO_OPERATOR.apiToken,
            currency: DEMO_OPERATOR.currency,
            timeZone: DEMO_OPERATOR.timeZone,
          },
      get gatewayUrl() {
        return text(ready['gatewayUrl']);
      },
      get gameUrl() {
        return text(ready['gameUrl']);
      },
      get sandboxUrl() {
        return wallet?.url ?? text(ready['sandboxUrl']);
      },
      get banner() {
        return banner;
      },
      async crash() {
        await process.kill('SIGKILL');
        process = new AppProcess('platform', entry, env, nodeArgs, options.root);
        ({ ready, banner } = await started(process));
      },
      async stop(signal) {
        const codes = [(await process.kill(signal)).code];
        if (wallet) codes.push((await wallet.process.kill(signal)).code);
        return codes;
      },
      pids: () => ({ platform: process.child.pid, ...(wallet && { 'operator-sandbox': wallet.process.child.pid }) }),
    };
  },
});

export const oneProcess = platformProcess('one process (npm start)', join('apps', 'platform', 'src', 'main.ts'));

/** `npm start` with its operator's wallet (the sandbox) in a process of its own: what the platform costs without it. */
export const oneProcessWalletApart = platformProcess(
  "one process (npm start), the operator's wallet in its own process",
  join('apps', 'platform', 'src', 'main.ts'),
  true,
);

/** `npm start` whose operator (E2E_OPERATOR, signing with E2E_SIGNING_SECRET) has its wallet at `callbackUrl`. */
export const oneProcessCalling = (callbackUrl: string): Topology =>
  platformProcess(
    `one process (npm start), the operator's wallet at ${callbackUrl}`,
    join('apps', 'platform', 'src', 'main.ts'),
    false,
    callbackUrl,
  );

/**
 * `npm start` with `BUS_URL=kafka://…`: the message bus on a real Kafka (`brokers`, e.g. what
 * `npm run infra:kafka -- start` prints), the events still in SQLite. A member SIGKILLed by `crash()`
 * leaves its groups after 3 s (KAFKA_SESSION_TIMEOUT_MS) instead of 10, so its partitions move on soon.
 */
export const oneProcessOnKafka = (brokers: string): Topology =>
  platformProcess(
    `one process (npm start) on Kafka at ${brokers}`,
    join('apps', 'platform', 'src', 'main.ts'),
    false,
    undefined,
    kafkaEnv(brokers),
  );

/** The bus on Kafka at `brokers`; a crashed member leaves its groups after 3 s. */
function kafkaEnv(brokers: string): Record<string, string> {
  return { BUS_URL: `kafka://${brokers}`, KAFKA_SESSION_TIMEOUT_MS: '3000' };
}

/**
 * `npm start` with its events in PostgreSQL (`EVENT_STORE_URL`, a schema of its own per start) and the
 * embedded bus: what the event store alone costs against SQLite.
 */
export const oneProcessOnPostgres = (eventStoreUrl: string): Topology =>
  platformProcess(
    'one process (npm start) on PostgreSQL',
    join('apps', 'platform', 'src', 'main.ts'),
    false,
    undefined,
    {
      EVENT_STORE_URL: eventStoreUrl,
    },
  );

/**
 * `npm start` on the production engines: the events in PostgreSQL (`EVENT_STORE_URL`, a schema of its
 * own per start, e.g. `postgres://postgres@127.0.0.1:5432/test?schema=e2e_…`) and the bus on Kafka.
 */
export const oneProcessOnKafkaAndPostgres = (brokers: string, eventStoreUrl: string): Topology =>
  platformProcess(
    `one process (npm start) on Kafka at ${brokers} and PostgreSQL`,
    join('apps', 'platform', 'src', 'main.ts'),
    false,
    undefined,
    { ...kafkaEnv(brokers), EVENT_STORE_URL: eventStoreUrl },
  );

/**
 * `npm start` with every position EventStoreDB-shaped (commit-prepare, string order wrong): proves
 * no service orders, checkpoints or resumes positions except through the store's comparison.
 */
export const oneProcessEsdbPositions = platformProcess(
  'one process on EventStoreDB-shaped positions (no service orders positions but through the store)',
  join('apps', 'platform', 'test', 'support', 'esdb-positions-main.ts'),
);

export const fourProcesses: Topology = {
  name: 'four processes on one SQLite file (built entries)',
  async start(dataDir, options = {}) {
    mkdirSync(join(REPOSITORY_ROOT, 'tmp'), { recursive: true });
    // Inside the repository, so the bundles find node_modules as dist/ does.
    const buildDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'e2e-build-'));
    const built = await buildApps(['gateway', 'bonus-ledger', 'wallet-dispatcher', 'game-server', 'operator-sandbox'], {
      outDir: buildDir,
    });
    const entry = (app: string) => built.find((candidate) => candidate.app === app)?.entry ?? '';

    const spawn = (app: string, env: Record<string, string>) =>
      new AppProcess(app, entry(app), { ...env, ...options.env }, options.nodeArgs?.(app) ?? []);
    const { url: sandboxUrl, process: sandbox } = await startWalletApart(dataDir, options, entry('operator-sandbox'));
    const env = {
      ...COMMON_ENV,
      DATA_DIR: dataDir,
      OPERATORS_JSON: operatorsJson(`${sandboxUrl}/wallet/${E2E_OPERATOR.id}`),
      HEALTH_PORT: '0',
      GAME_PORT: '0',
      GATEWAY_PORT: '0',
    };

    let services: AppProcess[] = [];
    let urls = { gateway: '', game: '' };
    const startServices = async () => {
      const backEnd = ['bonus-ledger', 'wallet-dispatcher', 'game-server'].map((app) => spawn(app, env));
      services = backEnd;
      const [, , game] = await Promise.all(backEnd.map((process) => process.ready()));
      const gameUrl = text(game?.['url']);
      const gateway = spawn('gateway', { ...env, LAUNCH_BASE_URL: gameUrl });
      services = [...backEnd, gateway];
      urls = { gateway: text((await gateway.ready())['url']), game: gameUrl };
    };
    try {
      await startServices();
    } catch (error) {
      for (const process of [...services, sandbox]) await process.kill('SIGKILL');
      rmSync(buildDir, { recursive: true, force: true });
      throw error;
    }
    return {
      dataDir,
      operator: E2E_OPERATOR,
      sandboxUrl,
      get gatewayUrl() {
        return urls.gateway;
      },
      get gameUrl() {
        return urls.game;
      },
      banner: undefined,
      async crash() {
        await Promise.all(services.map((process) => process.kill('SIGKILL')));
        await startServices();
      },
      async stop(signal) {
        // The gateway first, the operator's wallet last: as a rolling shutdown would.
        const codes: (number | null)[] = [];
        try {
          for (const process of [...[...services].reverse(), sandbox]) codes.push((await process.kill(signal)).code);
        } finally {
          rmSync(buildDir, { recursive: true, force: true });
        }
        return codes;
      },
      pids: () => Object.fromEntries([...services, sandbox].map((process) => [process.name, process.child.pid])),
    };
  },
};
