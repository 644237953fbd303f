/**
 * The e2e scenario behind the analyst tests (issue 13): the real platform in this process on the
 * embedded back ends — operator sandbox, bonus-ledger, wallet-dispatcher, game-server, gateway,
 * one SQLite data file — played over HTTP by two operators in two currencies:
 * - free spins to completion (both operators) and paid spins (slot bet + win, instant betwin);
 * - a cancel: a bet the sandbox applies but answers HTTP 500 for, canceled by the dispatcher;
 * - a bonus call that expires with spins left;
 * - a dead letter: a win the sandbox refuses three times.
 * Everything is stopped before it returns, so the tests read the data dir as an analyst would.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/config';
import {
  formatLocalDateTime,
  parseOperatorsConfig,
  parseStoredEvent,
  spinResponse,
  wallClockAt,
} from '@reelstream/contracts';
import { SqliteCheckpointStore, SqliteEventStore } from '@reelstream/eventstore-sqlite';
import { createSeededRng } from '@reelstream/game-domain';
import { TimeOrderedIdGenerator } from '@reelstream/ids';
import { SqliteMessageBus } from '@reelstream/messaging-sqlite';
import { systemClock } from '@reelstream/ports';
import { catalogLookup, readModelPath, startBonusLedger } from '@reelstream/service-bonus-ledger';
import { loadCatalogFile, startGameServer } from '@reelstream/service-game-server';
import { loadCatalogFile as loadGatewayCatalog, startGateway } from '@reelstream/service-gateway';
import { startOperatorSandbox, type TransactionView } from '@reelstream/service-operator-sandbox';
import { startWalletDispatcher } from '@reelstream/service-wallet-dispatcher';
import { createLogger } from '@reelstream/telemetry';
import { eventually } from '@reelstream/testing';

export interface ScenarioOperator {
  readonly id: string;
  readonly token: string;
  readonly currency: string;
  readonly timeZone: string;
}

export const SCENARIO_OPERATORS: readonly ScenarioOperator[] = [
  { id: 'casino-eu', token: 'casino-eu-api-token-0123456789', currency: 'EUR', timeZone: 'Europe/Berlin' },
  { id: 'casino-kr', token: 'casino-kr-api-token-0123456789', currency: 'KRW', timeZone: 'Asia/Seoul' },
];
const [EU, KR] = SCENARIO_OPERATORS as [ScenarioOperator, ScenarioOperator];

export interface ScenarioResult {
  /** The DATA_DIR: `reelstream.db` (event store and bus) and `sandbox.db` (the operator's wallet). */
  readonly dataDir: string;
  readonly eventStoreFile: string;
  readonly operators: readonly ScenarioOperator[];
  /** The sandbox's own ledger, every operator, oldest first. */
  readonly ledger: readonly TransactionView[];
  /** `GET /admin/transactions.csv` of each operator, as the sandbox exported it. */
  readonly exports: Readonly<Record<string, string>>;
  /** Every round the scenario played, settled or canceled. */
  readonly roundIds: readonly number[];
  readonly canceledRoundId: number;
  readonly deadLetteredRoundId: number;
  readonly expiredIssueId: number;
  readonly completedIssueIds: readonly number[];
}

async function call(method: string, url: string, token: string | undefined, json?: unknown) {
  const response = await fetch(url, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each caller reads the fields it needs
  return { status: response.status, body: (await response.json()) as any };
}

/** The operators' configuration as written in OPERATORS_JSON (the CLI reads their time zones: `--operators`). */
export function operatorsInput(sandboxUrl: string) {
  return SCENARIO_OPERATORS.map((operator) => ({
    id: operator.id,
    name: operator.id,
    apiToken: operator.token,
    callbackUrl: `${sandboxUrl}/wallet/${operator.id}`,
    signingSecret: `${operator.id}-signing-secret-000`,
    currency: operator.currency,
    timeZone: operator.timeZone,
  }));
}

/** The platform of the scenario, started; `stop()` closes every part and leaves the files. */
async function startStack(dataDir: string) {
  const lines: string[] = [];
  const logger = createLogger({ service: 'scenario', level: 'warn', destination: { write: (l) => lines.push(l) } });
  const file = join(dataDir, 'reelstream.db');
  const store = SqliteEventStore.open(file, { synchronous: 'NORMAL' });
  const buses: SqliteMessageBus[] = [];
  const bus = async (instanceId: string) => {
    const opened = await SqliteMessageBus.open(file, { instanceId, synchronous: 'NORMAL', partitions: 4 });
    buses.push(opened);
    return opened;
  };
  const late: { directory?: OperatorDirectory } = {};
  const sandbox = await startOperatorSandbox(
    { operators: { get: (id) => late.directory?.get(id) }, logger },
    {
      port: 0,
      host: '127.0.0.1',
      databasePath: join(dataDir, 'sandbox.db'),
      autoCreateBalance: undefined,
      synchronous: 'NORMAL',
      adminToken: undefined,
      latencyMs: 0,
    },
  );
  const directory = new OperatorDirectory(parseOperatorsConfig(operatorsInput(sandbox.url)));
  late.directory = directory;
  const checkpoints = new SqliteCheckpointStore(store.database);
  const ledger = await startBonusLedger(
    {
      store,
      checkpoints,
      bus: await bus('bonus-ledger'),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(1),
      operators: (id) => directory.get(id),
      catalog: catalogLookup(loadCatalogFile()),
      logger,
    },
    { readModelFile: readModelPath(dataDir), healthPort: 0 },
  );
  const dispatcher = await startWalletDispatcher(
    {
      store,
      bus: await bus('wallet-dispatcher'),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(2),
      logger,
      operators: directory,
    },
    { healthPort: 0, healthHost: '127.0.0.1', maxSockets: 16 },
  );
  await dispatcher.ready;
  const game = await startGameServer(
    {
      store,
      checkpoints,
      bus: await bus('game-server'),
      catalog: loadCatalogFile(),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(3),
      logger,
      operators: directory,
      rng: createSeededRng('reelstream-cli scenario'),
    },
    {
      port: 0,
      host: '127.0.0.1',
      walletTimeoutMs: 5_000,
      ledgerTimeoutMs: 5_000,
      resolveAfterMs: 15_000,
      resolveIntervalMs: 100,
      demoBalance: 1_000,
    },
  );
  const gateway = await startGateway(
    {
      bus: await bus('gateway'),
      store,
      operators: directory,
      catalog: loadGatewayCatalog(),
      clock: systemClock,
      ids: new TimeOrderedIdGenerator(4),
      logger,
    },
    {
      port: 0,
      host: '127.0.0.1',
      launchBaseUrl: game.url,
      sessionTtlMs: 4 * 3_600_000,
      ledgerTimeoutMs: 5_000,
      rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
      bodyLimitBytes: 32 * 1024,
    },
  );
  return {
    store,
    sandbox,
    gatewayUrl: gateway.url,
    gameUrl: game.url,
    logs: lines,
    async stop() {
      await gateway.stop(1_000);
      await game.stop(1_000);
      await dispatcher.stop();
      await ledger.stop();
      await sandbox.stop();
      for (const opened of buses) await opened.close();
      await store.close();
    },
  };
}
type Stack = Awaited<ReturnType<typeof startStack>>;

let platformIds = 0;

/** Plays the operator's side (API v1) and the player's (the launch host) for one player. */
class Player {
  token = '';
  constructor(
    private readonly stack: Stack,
    readonly operator: ScenarioOperator,
    readonly playerId: string,
  ) {}

  async fund(amountMinor: number): Promise<void> {
    this.stack.sandbox.views.setBalance(this.operator.id, this.playerId, this.operator.currency, amountMinor);
  }

  async launch(gameId: number): Promise<void> {
    const response = await call('POST', `${this.stack.gatewayUrl}/v1/game/launch`, this.operator.token, {
      playerId: this.playerId,
      providerId: gameId >= 200 ? 2 : 1,
      gameId,
      language: 'en',
      returnUrl: 'https://casino.example/lobby',
      isStreamer: false,
    });
    if (response.status !== 200) throw new Error(`launch: ${JSON.stringify(response.body)}`);
    this.token = new URL(String(response.body.data)).searchParams.get('token') ?? '';
  }

  async register(gameId: number, spins: number, baseBet: number, callAmount: number, expireInMs: number) {
    const expireAt = formatLocalDateTime(
      wallClockAt(Math.ceil((Date.now() + expireInMs) / 1_000) * 1_000, this.operator.timeZone),
    );
    const response = await call('POST', `${this.stack.gatewayUrl}/v1/bonus-call/register`, this.operator.token, {
      platformId: `scenario-${this.playerId}-${++platformIds}`,
      providerId: gameId >= 200 ? 2 : 1,
      gameId,
      playerId: this.playerId,
      bonusType: 1,
      callAmount,
      expireAt,
      metaData: { spinAmount: spins, baseBetAmount: baseBet },
    });
    if (response.status !== 200) throw new Error(`register: ${JSON.stringify(response.body)}`);
    return Number(response.body.data.issueId);
  }

  /** One spin; the round it played (a canceled paid round answers with an error and names no round). */
  async spin(body: Record<string, unknown>): Promise<number | undefined> {
    const response = await call('POST', `${this.stack.gameUrl}/api/sessions/${this.token}/spin`, undefined, body);
    if (response.status !== 200) return undefined;
    return spinResponse.parse(response.body).data.roundId;
  }

  bonusStatus(issueId: number) {
    return call('GET', `${this.stack.gatewayUrl}/v1/bonus-call/${issueId}`, this.operator.token);
  }
}

/** Waits until every wallet transaction and cancel in the log has its outcome: nothing is still in flight. */
async function quiesce(stack: Stack): Promise<void> {
  await eventually(async () => {
    const open = new Set<string>();
    for (const recorded of await stack.store.readAll({ filter: { streamPrefixes: ['walletTx-'] } })) {
      const event = parseStoredEvent(recorded);
      const key = recorded.streamId;
      if (event.type === 'WalletRequested') open.add(`${key}:tx`);
      if (
        event.type === 'WalletSucceeded' ||
        event.type === 'WinDeadLettered' ||
        (event.type === 'WalletFailed' && event.data.final)
      )
        open.delete(`${key}:tx`);
      if (event.type === 'CancelRequested') open.add(`${key}:cancel`);
      if (event.type === 'CancelSucceeded') open.delete(`${key}:cancel`);
    }
    if (open.size > 0) throw new Error(`still in flight: ${[...open].join(', ')}`);
  }, 20_000);
}

async function playFreeSpinsToCompletion(player: Player, gameId: number, spins: number, baseBet: number, cap: number) {
  const issueId = await player.register(gameId, spins, baseBet, cap, 86_400_000);
  await player.launch(gameId);
  const rounds: number[] = [];
  for (let spin = 0; spin < spins; spin++) {
    const roundId = await player.spin({ issueId, bet: baseBet });
    if (roundId === undefined) throw new Error(`free spin ${spin + 1} of bonus ${issueId} failed`);
    rounds.push(roundId);
  }
  return { issueId, rounds };
}

async function playPaid(player: Player, gameId: number, bet: number, count: number): Promise<number[]> {
  await player.launch(gameId);
  const rounds: number[] = [];
  for (let spin = 0; spin < count; spin++) {
    const roundId = await player.spin({ bet });
    if (roundId === undefined) throw new Error(`paid spin ${spin + 1} of ${player.playerId} failed`);
    rounds.push(roundId);
  }
  return rounds;
}

async function roundIdsOfLog(stack: Stack): Promise<number[]> {
  const events = await stack.store.readAll({ filter: { streamPrefixes: ['round-'] } });
  return [
    ...new Set(events.filter((event) => event.type === 'RoundStarted').map((event) => Number(event.streamId.slice(6)))),
  ];
}

export async function runScenario(): Promise<ScenarioResult> {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-scenario-'));
  const stack = await startStack(dataDir);
  try {
    const ana = new Player(stack, EU, 'eu_ana');
    const ben = new Player(stack, EU, 'eu_ben');
    const min = new Player(stack, KR, 'kr_min');
    const joon = new Player(stack, KR, 'kr_joon');
    const dee = new Player(stack, KR, 'kr_dee');
    await ana.fund(50_000);
    await ben.fund(20_000);
    await min.fund(500_000);
    await joon.fund(100_000);
    await dee.fund(100_000);

    // The expiring bonus first, so its clock runs while the rest is played.
    const expiredIssueId = await joon.register(101, 3, 200, 50_000, 5_000);
    await joon.launch(101);
    if ((await joon.spin({ issueId: expiredIssueId, bet: 200 })) === undefined) throw new Error('joon could not spin');

    const anaFree = await playFreeSpinsToCompletion(ana, 101, 4, 0.2, 500);
    const minFree = await playFreeSpinsToCompletion(min, 201, 3, 200, 50_000);
    await playPaid(ana, 102, 1, 6);
    await playPaid(ana, 203, 0.5, 3);
    await playPaid(min, 101, 1000, 5);

    // The cancel: the operator applies ben's bet but answers HTTP 500; bet has one attempt, so the dispatcher cancels.
    stack.sandbox.faults.add({
      operatorId: EU.id,
      playerId: ben.playerId,
      command: 'bet',
      httpStatus: 500,
      applyFirst: true,
      times: 1,
    });
    await ben.launch(103);
    if ((await ben.spin({ bet: 1 })) !== undefined) throw new Error('the faulted bet was not refused');
    await playPaid(ben, 103, 0.5, 2);

    // The dead letter: dee's win is refused on all three attempts.
    stack.sandbox.faults.add({ operatorId: KR.id, playerId: dee.playerId, command: 'win', httpStatus: 500, times: 3 });
    const [deadLetteredRoundId] = await playPaid(dee, 102, 400, 1);

    await eventually(async () => {
      const status = await joon.bonusStatus(expiredIssueId);
      if (status.body?.data?.status !== 'expired')
        throw new Error(`bonus ${expiredIssueId} is ${status.body?.data?.status}`);
    }, 15_000);
    await quiesce(stack);

    const roundIds = await roundIdsOfLog(stack);
    const canceled = (await stack.store.readAll({ filter: { streamPrefixes: ['round-'] } })).find(
      (event) => event.type === 'RoundCanceled',
    );
    if (!canceled || deadLetteredRoundId === undefined)
      throw new Error('the scenario has no canceled or dead-lettered round');
    const exports: Record<string, string> = {};
    for (const operator of SCENARIO_OPERATORS)
      exports[operator.id] = await (
        await fetch(`${stack.sandbox.url}/admin/transactions.csv?operatorId=${operator.id}`)
      ).text();
    return {
      dataDir,
      eventStoreFile: join(dataDir, 'reelstream.db'),
      operators: SCENARIO_OPERATORS,
      ledger: stack.sandbox.views.transactions(),
      exports,
      roundIds,
      canceledRoundId: Number(canceled.streamId.slice(6)),
      deadLetteredRoundId,
      expiredIssueId,
      completedIssueIds: [anaFree.issueId, minFree.issueId],
    };
  } finally {
    await stack.stop();
  }
}
