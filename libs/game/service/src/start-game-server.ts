/**
 * startGameServer: the launch host (docs/architecture.md "Processes") — the game page and player API over HTTP, the
 * round outbox that publishes wins and resolves rounds left open. Takes its ports; `stop()`
 * stops everything it started and leaves the back ends to the caller.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GAME_SERVER_SHARES_GROUP, Topics, type OperatorConfig } from '@reelstream/contracts';
import type { Catalog } from '@reelstream/contracts';
import type { Rng } from '@reelstream/game-domain';
import { createHttpServer, reachableUrl, StopSequence, stopWithDrain } from '@reelstream/platform-http';
import { runSharded } from '@reelstream/platform-eventsourcing';
import { joinShareGroup, type LeasesAndFencedCheckpoints, type ServicePorts } from '@reelstream/platform-ports';
import type { Logger } from '@reelstream/platform-telemetry';
import { cryptoRng, playerBonus, WalletClient } from '@reelstream/game-adapters';
import {
  BalanceBook,
  walletRepliesIn,
  GameTable,
  InFlightRounds,
  resolveRound,
  ROUND_OUTBOX_CHECKPOINT,
  RoundStreams,
  SessionRepository,
  SpinClaims,
  SpinService,
  startRoundOutbox,
  type RoundDeps,
  type RoundOutbox,
  type RoundStartedData,
} from '@reelstream/game-application';
import type { GameServerConfig } from './config/game-server-env.js';
import { createGameServerApp } from './http/app.js';
import { reportImplausibleBalances } from './implausible-balances.js';
import { observeRoundOutbox } from './outbox-metrics.js';

export interface GameServerDeps extends ServicePorts {
  /** The round outbox's lease and fenced checkpoint (the event store's own). */
  leases: LeasesAndFencedCheckpoints;
  /** This replica's `INSTANCE_ID`: the owner of its leases and spin claims. */
  instanceId: string;
  catalog: Catalog;
  logger: Logger;
  /** Default: node:crypto. Tests may pass a seeded one. */
  rng?: Rng;
  /** For the launch page's frame-ancestors (the operator's allowed origins). */
  operators?: { get(id: string): OperatorConfig | undefined };
}

export interface GameServer {
  readonly port: number;
  /** `http://127.0.0.1:{port}` or the configured host. */
  readonly url: string;
  /** The round outbox and resolver: running on the one replica that holds their lease. */
  readonly outbox: LeasedRoundOutbox;
  /** Stops accepting, lets requests in flight finish (up to `drainMs`), then stops the outbox and releases its lease. */
  stop(drainMs?: number): Promise<void>;
  /** Stops like a killed process would: the outbox's lease is not released, so the others wait out the ttl. For tests. */
  abandon(): Promise<void>;
}

interface LeasedRoundOutbox {
  /** True while this replica holds the outbox's lease (of one of its shards at least). */
  readonly holding: boolean;
  /** The outbox's shards this replica works on ([0] for an outbox not split, while it holds its lease). */
  readonly shards: readonly number[];
  /** Open rounds known to this replica's outbox shards; none while it holds no lease. */
  openRounds(): readonly RoundStartedData[];
}

// Long because: the service's wiring in start order, one call per step, with the stop sequence registered step by step
// alongside.
export async function startGameServer(deps: GameServerDeps, config: GameServerConfig): Promise<GameServer> {
  const { store, bus, clock, ids, logger } = deps;
  const table = new GameTable(deps.catalog);
  const rounds = new RoundStreams(store, clock);
  const round: RoundDeps = {
    rounds,
    wallet: new WalletClient(bus, config.walletTimeoutMs),
    // Free-spin and Regular Bonus Call completions are decided here (ADR 0006, 0012).
    bonus: playerBonus({ store, clock, ids }),
    balances: new BalanceBook(walletRepliesIn(store), config.demoBalance, {
      ...(config.balanceCeilingUnits === undefined ? {} : { balanceCeilingUnits: config.balanceCeilingUnits }),
      onImplausible: reportImplausibleBalances(logger, (operatorId) => deps.operators?.get(operatorId) !== undefined),
    }),
    table,
    ids,
    clock,
    rng: deps.rng ?? cryptoRng,
    logger,
    inFlight: new InFlightRounds(),
  };
  const sessions = new SessionRepository(store, clock);
  // One spin per session across the replicas; a crashed replica's claim lapses when a spin would have given up.
  const locks = new SpinClaims({
    leases: deps.leases,
    instanceId: deps.instanceId,
    ttlMs: config.resolveAfterMs,
    onReleaseError: (error) => logger.error('spin claim release failed; it lapses on its own', { error }),
  });
  const spins = new SpinService({ round, sessions, table, locks });

  // One outbox (and resolver) across the replicas, where its lease is held (docs/adr/0005-leases-and-fencing.md), or
  // split into ROUND_OUTBOX_SHARDS shards, each pod taking its share of the `game-server` group's partitions of them
  // (docs/adr/0045-outbox-and-relay-split-into-shards.md).
  const shardCount = config.roundOutboxShards ?? 1;
  const group =
    shardCount > 1 ? await joinShareGroup(bus, GAME_SERVER_SHARES_GROUP, Topics.gameServerShares) : undefined;
  const running = new Set<RoundOutbox>();
  const leased = runSharded({
    leases: deps.leases,
    positions: store,
    name: ROUND_OUTBOX_CHECKPOINT,
    owner: deps.instanceId,
    ttlMs: config.leaseTtlMs ?? 10_000,
    count: shardCount,
    share: () => group?.share ?? 1,
    start: (shard) => {
      const started = startRoundOutbox({
        store,
        ...shard,
        bus,
        rounds,
        clock,
        logger,
        resolveAfterMs: config.resolveAfterMs,
        resolveIntervalMs: config.resolveIntervalMs ?? 1_000,
        isInFlight: (roundId) => round.inFlight.has(roundId),
        resolve: async (open) => {
          const resolution = await resolveRound(round, open);
          logger.info('open round resolved', { roundId: open.roundId, resolution });
        },
      });
      running.add(started);
      return {
        stop: async () => {
          running.delete(started);
          await started.stop();
        },
      };
    },
    onChange: (change, lease) =>
      logger.info(`lease ${change}`, {
        worker: 'round-outbox',
        lease: lease.name,
        token: lease.token,
        instanceId: deps.instanceId,
      }),
    onError: (error) => logger.error('round outbox lease failed', { error }),
  });
  const outbox: LeasedRoundOutbox = {
    get holding() {
      return leased.holding;
    },
    get shards() {
      return leased.held;
    },
    openRounds: () => [...running].flatMap((shard) => shard.openRounds()),
  };

  let accepting = true;
  const app = createGameServerApp({
    store,
    sessions,
    table,
    bonus: round.bonus,
    balances: round.balances,
    rounds,
    spins,
    operators: deps.operators,
    ready: () => accepting,
    logger,
    clock,
    rateLimits: config.rateLimits,
    trustProxy: config.trustProxy,
  });
  const listening: { port?: number } = {};
  const stops = new StopSequence();
  stops.add(() => logger.info('game-server stopped', { port: listening.port }));
  let release = true;
  stops.add(() => (release ? leased.stop() : leased.abandon()));
  if (group) stops.add(() => group.stop());
  stops.add(observeRoundOutbox(store, deps.leases, shardCount));
  const server: Server = createHttpServer(app).listen(config.port, config.host ?? '::');
  try {
    await once(server, 'listening');
  } catch (error) {
    await stops.stop();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  listening.port = port;
  logger.info('game-server listening', { port });

  const stop = stopWithDrain(stops, server, 10_000, () => (accepting = false));
  return {
    port,
    url: reachableUrl(config.host, port),
    outbox,
    stop,
    abandon() {
      release = false;
      return stop(0);
    },
  };
}
