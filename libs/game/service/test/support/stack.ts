/**
 * The platform in this process on the embedded back ends: gateway, bonus-ledger,
 * wallet-dispatcher, operator sandbox and game-server, each through its own start function on a
 * free port, sharing one temp SQLite file (each service with its own bus client, as separate
 * processes would have). A tap on `wallet.requests` records every wallet request published.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from '@jest/globals';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  parseOperatorsConfig,
  Topics,
  walletRequestsMessage,
  type OperatorConfig,
  type OperatorConfigInput,
  type WalletRequestsMessage,
} from '@reelstream/contracts';
import { SqliteEventStore, SqliteLeaseStore } from '@reelstream/platform-eventstore-sqlite';
import type { Rng } from '@reelstream/game-domain';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { systemClock, type Consumer, type EventToAppend, type OutgoingMessage } from '@reelstream/platform-ports';
import { catalogLookup } from '@reelstream/bonus-application';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { readModelPath, startBonusLedger, type BonusLedger } from '@reelstream/bonus-service';
import { startWalletDispatcher, type WalletDispatcher } from '@reelstream/wallet-service';
import { defaultBulkheadLimits } from '@reelstream/wallet-application';
import { startGateway, type RunningGateway } from '@reelstream/gateway-service';
import { startOperatorSandbox, type OperatorSandbox } from '@reelstream/sandbox-service';
import { createLogger, type Logger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { startGameServer, type GameServer, type GameServerConfig } from '../../src/index.js';
import { call, type JsonResponse } from './http.js';
import { ShiftedClock } from './shifted-clock.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

export const OPERATOR_ID = 'casino-t';
/** The operator's signing secret: its callbacks and webhooks are signed with it. */
export const SIGNING_SECRET = 'signing-secret-of-casino-t';
const API_TOKEN = 'api-token-of-casino-t-0123456789abcdef';
export const SESSION_TTL_MS = 4 * 3_600_000;

export interface StackOptions {
  /** The game-server's RNG (default node:crypto). */
  rng?: Rng;
  gameServer?: Partial<GameServerConfig>;
  /** Opening balance of players the sandbox has not seen (currency units). */
  openingBalance?: number;
  /**
   * Awaited before each append of the game-server to the event store: a test holds a spin at a
   * chosen step (after the ledger started it, before the round is recorded) to race it.
   */
  beforeGameServerAppend?: (streamId: string, events: readonly EventToAppend[]) => Promise<void>;
  /**
   * Awaited before each request the game-server sends on the bus (a bet or betwin to the
   * dispatcher): a test rejects one as a bus that cannot take it for now does.
   */
  beforeGameServerRequest?: (topic: string, message: OutgoingMessage) => Promise<void>;
  /** The game-server opens its own connection to the stack's file, as another replica's process would. */
  ownConnection?: boolean;
  /** The operator's bonus webhookUrl, read when the stack boots; none by default. */
  webhookUrl?: () => string;
  /** The dispatcher's backoff between webhook attempts (default its own: 1 s, 2 s, …). */
  webhookRetryDelayMs?: (attempt: number) => number;
  /** How long the operator's open circuit (callbacks and webhooks alike) refuses before a probe. Default 5 s. */
  circuitOpenMs?: number;
  /** The operator's `features.regularBonusCall` (D3): bonusType 2 accepted. Off by default. */
  regularBonusCall?: boolean;
  /** The operator's wallet, read when the stack boots: the sandbox's by default. */
  callbackUrl?: () => string;
  /**
   * The dispatcher runs the scheduled re-drive of dead-lettered wins (under its lease, looking every
   * `tickMs`) with this operator `winRedrive`. Off by default: a dead letter then waits for a person.
   */
  scheduledRedrive?: { everySeconds: number; forSeconds: number; tickMs: number };
  /** More operators beside the stack's own (`casino-t`), e.g. one that only calls the operator API. */
  otherOperators?: OperatorConfigInput[];
}

/** A Free Spin Bonus of `playerId`: on game 101, at a base bet of 0.20, paying up to 100, unless set here. */
export interface FreeSpinBonus {
  playerId: string;
  gameIds?: number[];
  spinAmount: number;
  callAmount?: number;
  baseBetAmount?: number;
  providerId?: number;
  /** The bonus call's currency (default: the operator's, EUR). */
  currency?: string;
  /** Wall-clock `YYYY-MM-DD HH:mm:ss` UTC (default: in 24 hours). */
  expireAt?: string;
}

export class Stack {
  private readonly buses: SqliteMessageBus[] = [];
  private readonly connections: SqliteEventStore[] = [];
  readonly published: WalletRequestsMessage[] = [];
  private platformId = 0;
  gameServer!: GameServer;
  gateway!: RunningGateway;
  sandbox!: OperatorSandbox;
  private ledger!: BonusLedger;
  private dispatcher!: WalletDispatcher;
  /** Worker ids: the ledger 1, the dispatcher 2, the gateway 4; game-servers 3, then 10, 11, … */
  private gameServerWorkerId = 3;
  private tap!: Consumer;
  private tapBus!: SqliteMessageBus;
  operators!: OperatorDirectory;

  private constructor(
    readonly dir: string,
    readonly store: SqliteEventStore,
    readonly gameClock: ShiftedClock,
    readonly logger: Logger,
    /** Every log line of every service (level info and above). */
    readonly logs: string[],
  ) {}

  static async start(options: StackOptions = {}): Promise<Stack> {
    const stack = Stack.create();
    try {
      await stack.boot(options);
    } catch (error) {
      await stack.close();
      throw error;
    }
    return stack;
  }

  /** The stack of one test file: its files made now, started before the file's tests and closed after them. */
  static forTests(options: StackOptions = {}): Stack {
    const stack = Stack.create();
    beforeAll(() => stack.boot(options));
    afterAll(() => stack.close());
    return stack;
  }

  private static create(): Stack {
    const dir = mkdtempSync(join(tmpdir(), 'game-server-test-'));
    const logs: string[] = [];
    const logger = createLogger({
      service: 'game-server-test',
      level: 'info',
      destination: { write: (line: string) => logs.push(line) },
    });
    // NORMAL: these tests measure behaviour, not durability, and fsyncs would dominate them.
    const store = SqliteEventStore.open(join(dir, 'reelstream.db'), { synchronous: 'NORMAL' });
    return new Stack(dir, store, new ShiftedClock(), logger, logs);
  }

  private async bus(instanceId: string): Promise<SqliteMessageBus> {
    const bus = await SqliteMessageBus.open(join(this.dir, 'reelstream.db'), {
      instanceId,
      synchronous: 'NORMAL',
      partitions: 4,
    });
    this.buses.push(bus);
    return bus;
  }

  private async boot(options: StackOptions): Promise<void> {
    const { store, logger } = this;
    const leases = new SqliteLeaseStore(store.database);
    // The sandbox starts first (its URL is the operators' callback URL) and looks operators up later.
    const late: { directory?: OperatorDirectory } = {};
    const lookup = { get: (id: string): OperatorConfig | undefined => late.directory?.get(id) };

    this.sandbox = await startOperatorSandbox(
      { operators: lookup, logger },
      {
        port: 0,
        host: '127.0.0.1',
        databasePath: join(this.dir, 'sandbox.db'),
        autoCreateBalance: options.openingBalance ?? 100,
        synchronous: 'NORMAL',
        adminToken: undefined,
        latencyMs: 0,
      },
    );
    const directory = new OperatorDirectory(
      parseOperatorsConfig([
        {
          id: OPERATOR_ID,
          name: 'Test casino',
          apiToken: API_TOKEN,
          callbackUrl: options.callbackUrl?.() ?? `${this.sandbox.url}/wallet/${OPERATOR_ID}`,
          signingSecret: SIGNING_SECRET,
          ...(options.webhookUrl === undefined ? {} : { webhookUrl: options.webhookUrl() }),
          currency: 'EUR',
          currencies: ['EUR', 'KRW'],
          timeZone: 'UTC',
          // The paid-spin tests launch streamer sessions too.
          features: { regularBonusCall: options.regularBonusCall ?? false, streamers: true },
          ...(options.scheduledRedrive === undefined
            ? {}
            : {
                winRedrive: {
                  everySeconds: options.scheduledRedrive.everySeconds,
                  forSeconds: options.scheduledRedrive.forSeconds,
                },
              }),
        },
        ...(options.otherOperators ?? []),
      ]),
    );
    late.directory = directory;
    this.operators = directory;

    const tapBus = await this.bus('test-tap');
    this.tapBus = tapBus;
    this.tap = await tapBus.subscribe({
      groupId: 'test-tap',
      topics: [Topics.walletRequests],
      handler: async (message) => {
        this.published.push(walletRequestsMessage.parse(message.value));
      },
    });
    await this.tap.ready;

    this.ledger = await startBonusLedger(
      {
        store,
        leases,
        instanceId: 'bonus-ledger',
        bus: await this.bus('bonus-ledger'),
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(1),
        operators: (operatorId) => directory.get(operatorId),
        catalog: catalogLookup(loadCatalogFile()),
        logger,
      },
      { readModelFile: readModelPath(this.dir, 'bonus-ledger'), healthPort: 0 },
    );
    this.dispatcher = await startWalletDispatcher(
      {
        store,
        bus: await this.bus('wallet-dispatcher'),
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(2),
        logger,
        operators: directory,
        ...(options.webhookRetryDelayMs === undefined ? {} : { webhookRetryDelayMs: options.webhookRetryDelayMs }),
        ...(options.scheduledRedrive === undefined ? {} : { leases, instanceId: 'wallet-dispatcher' }),
      },
      {
        healthPort: 0,
        healthHost: '127.0.0.1',
        maxSockets: 16,
        ...(options.scheduledRedrive === undefined ? {} : { redriveTickMs: options.scheduledRedrive.tickMs }),
        ...(options.circuitOpenMs === undefined
          ? {}
          : { bulkhead: { ...defaultBulkheadLimits, openMs: options.circuitOpenMs } }),
      },
    );
    await this.dispatcher.ready;
    this.gameServer = await this.startGameServer(options);
    this.gateway = await startGateway(
      {
        bus: await this.bus('gateway'),
        store,
        operators: directory,
        catalog: loadCatalogFile(),
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(4),
        logger,
        reconciliationReadModels: SqliteReconciliationReadModel,
      },
      {
        port: 0,
        host: '127.0.0.1',
        launchBaseUrl: this.gameServer.url,
        sessionTtlMs: SESSION_TTL_MS,
        ledgerTimeoutMs: 5_000,
        rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
        bodyLimitBytes: 32 * 1024,
      },
    );
  }

  /** A game-server on this stack's back ends (a second one simulates a restart after `stopGameServer`). */
  async startGameServer(
    options: StackOptions = {},
    instanceId = `game-server-${this.buses.length}`,
  ): Promise<GameServer> {
    let own = this.store;
    if (options.ownConnection) {
      own = SqliteEventStore.open(join(this.dir, 'reelstream.db'), { synchronous: 'NORMAL' });
      this.connections.push(own);
    }
    return startGameServer(
      {
        store: options.beforeGameServerAppend ? gated(own, 'append', options.beforeGameServerAppend) : own,
        leases: new SqliteLeaseStore(own.database),
        instanceId,
        bus: options.beforeGameServerRequest
          ? gated(await this.bus(instanceId), 'request', options.beforeGameServerRequest)
          : await this.bus(instanceId),
        catalog: loadCatalogFile(),
        clock: this.gameClock,
        // Replicas side by side must not share a worker id (ADR 0039): every start takes the next one.
        ids: new TimeOrderedIdGenerator(this.nextGameServerWorkerId()),
        logger: this.logger,
        operators: this.operators,
        ...(options.rng ? { rng: options.rng } : {}),
      },
      {
        port: 0,
        host: '127.0.0.1',
        walletTimeoutMs: 5_000,
        resolveAfterMs: 15_000,
        resolveIntervalMs: 100,
        demoBalance: 1_000,
        ...options.gameServer,
      },
    );
  }

  private nextGameServerWorkerId(): number {
    const id = this.gameServerWorkerId;
    this.gameServerWorkerId = id === 3 ? 10 : id + 1;
    return id;
  }

  /** POST /v1/game/launch through the gateway; the launch URL's token. */
  async launch(
    playerId: string,
    gameId: number,
    extra: { language?: string; isStreamer?: boolean; providerId?: number; currency?: string } = {},
  ): Promise<{ url: string; token: string }> {
    const providerId = extra.providerId ?? (gameId >= 200 ? 2 : 1);
    const response = await call('POST', `${this.gateway.url}/v1/game/launch`, {
      token: API_TOKEN,
      json: {
        playerId,
        providerId,
        gameId,
        language: extra.language ?? 'en',
        returnUrl: 'https://casino.example/lobby',
        isStreamer: extra.isStreamer ?? false,
        ...(extra.currency === undefined ? {} : { currency: extra.currency }),
      },
    });
    if (response.status !== 200) throw new Error(`launch failed: ${response.status} ${response.text}`);
    const url = String(response.body.data);
    const token = new URL(url).searchParams.get('token');
    if (!token) throw new Error(`launch URL without token: ${url}`);
    return { url, token };
  }

  /** POST /v1/bonus-call/register through the gateway; the issueId. */
  async registerFreeSpins(asked: FreeSpinBonus): Promise<number> {
    const bonus = { gameIds: [101], callAmount: 100, baseBetAmount: 0.2, ...asked };
    const expireAt =
      bonus.expireAt ?? new Date(Date.now() + 24 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    const response = await call('POST', `${this.gateway.url}/v1/bonus-call/register`, {
      token: API_TOKEN,
      json: {
        platformId: `promo-${Date.now()}-${++this.platformId}`,
        providerId: bonus.providerId ?? ((bonus.gameIds[0] ?? 0) >= 200 ? 2 : 1),
        gameId: bonus.gameIds.length === 1 ? bonus.gameIds[0] : bonus.gameIds,
        playerId: bonus.playerId,
        bonusType: 1,
        callAmount: bonus.callAmount,
        ...(bonus.currency === undefined ? {} : { currency: bonus.currency }),
        expireAt,
        metaData: { spinAmount: bonus.spinAmount, baseBetAmount: bonus.baseBetAmount },
      },
    });
    if (response.status !== 200) throw new Error(`register failed: ${response.status} ${response.text}`);
    return Number(response.body.data.issueId);
  }

  /** POST /v1/bonus-call/register of a Regular Bonus Call (bonusType 2) through the gateway; the answer. */
  async registerRegularBonus(asked: {
    playerId: string;
    gameIds: number[];
    callAmount: number;
    /** Wall-clock `YYYY-MM-DD HH:mm:ss` UTC (default: in 24 hours). */
    expireAt?: string;
  }): Promise<JsonResponse> {
    const expireAt =
      asked.expireAt ?? new Date(Date.now() + 24 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
    return call('POST', `${this.gateway.url}/v1/bonus-call/register`, {
      token: API_TOKEN,
      json: {
        platformId: `regular-${Date.now()}-${++this.platformId}`,
        providerId: (asked.gameIds[0] ?? 0) >= 200 ? 2 : 1,
        gameId: asked.gameIds.length === 1 ? asked.gameIds[0] : asked.gameIds,
        playerId: asked.playerId,
        bonusType: 2,
        callAmount: asked.callAmount,
        expireAt,
      },
    });
  }

  /** POST /v1/bonus-call/cancel through the gateway. */
  async cancelBonus(issueId: number): Promise<JsonResponse> {
    return call('POST', `${this.gateway.url}/v1/bonus-call/cancel`, { token: API_TOKEN, json: { issueId } });
  }

  /** GET /v1/bonus-call/{issueId} through the gateway. */
  async bonusStatus(issueId: number): Promise<JsonResponse> {
    return call('GET', `${this.gateway.url}/v1/bonus-call/${issueId}`, { token: API_TOKEN });
  }

  /** Any operator API call through the gateway, with the operator's token. */
  operatorApi(method: 'GET' | 'POST', path: string): Promise<JsonResponse> {
    return call(method, `${this.gateway.url}${path}`, { token: API_TOKEN });
  }

  session(token: string): Promise<JsonResponse> {
    return call('GET', `${this.gameServer.url}/api/sessions/${token}`);
  }

  spin(token: string, body: Record<string, unknown>): Promise<JsonResponse> {
    return call('POST', `${this.gameServer.url}/api/sessions/${token}/spin`, { json: body });
  }

  /** Sets the player's balance at the sandbox operator (currency units). */
  fund(playerId: string, balance: number, currency = 'EUR'): void {
    this.sandbox.views.setBalance(OPERATOR_ID, playerId, currency, Math.round(balance * 100));
  }

  balanceMinor(playerId: string, currency = 'EUR'): number | undefined {
    return this.sandbox.views.accounts(OPERATOR_ID, playerId).find((account) => account.currency === currency)
      ?.balanceMinor;
  }

  /** The sandbox's ledger for the player: what the operator's wallet actually applied. */
  transactions(playerId: string) {
    return this.sandbox.views.transactions({ operatorId: OPERATOR_ID, playerId });
  }

  /**
   * Resolves once the tap has read every wallet request published so far: what `publishedFor` lacks
   * after that was never published.
   */
  async tapCaughtUp(): Promise<void> {
    await eventually(async () => {
      const lag = await this.tapBus.consumerLag('test-tap', [Topics.walletRequests]);
      expect(lag.reduce((sum, partition) => sum + partition.lag, 0)).toBe(0);
    });
  }

  publishedFor(playerId: string): WalletRequestsMessage[] {
    return this.published.filter((message) => message.playerId === playerId);
  }

  async roundEvents(roundId: number): Promise<string[]> {
    return (await this.store.readStream(`round-${roundId}`)).map((event) => event.type);
  }

  async close(): Promise<void> {
    await this.gateway?.stop(1_000);
    await this.gameServer?.stop(1_000);
    await this.dispatcher?.stop();
    await this.ledger?.stop();
    await this.tap?.stop();
    await this.sandbox?.stop();
    for (const bus of this.buses) await bus.close();
    for (const connection of this.connections) await connection.close();
    await this.store.close();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** `target` whose `method` awaits `before` with the call's first two arguments, then runs. */
function gated<T extends object, K extends keyof T>(
  target: T,
  method: K,
  before: (...args: never[]) => Promise<void>,
): T {
  return new Proxy(target, {
    get(object, property) {
      const value: unknown = Reflect.get(object, property);
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(object);
      if (property !== method) return bound;
      return async (...args: unknown[]) => {
        await (before as (...args: unknown[]) => Promise<void>)(args[0], args[1]);
        return bound(...args);
      };
    },
  });
}
