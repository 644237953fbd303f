/**
 * startGameServer: the launch host (docs/architecture.md "Processes") — the game page and player API over HTTP, the
 * round outbox that publishes wins and resolves rounds left open. Takes its ports; `stop()`
 * stops everything it started and leaves the back ends to the caller.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OperatorConfig } from '@reelstream/contracts';
import type { Catalog, Rng } from '@reelstream/game-domain';
import { closeGracefully, createHttpServer, reachableUrl, StopSequence } from '@reelstream/http';
import type { CheckpointStore, Clock, EventStore, IdGenerator, MessageBus } from '@reelstream/ports';
import type { Logger } from '@reelstream/telemetry';
import { cryptoRng, playerStreamLedger, WalletClient } from '@reelstream/game-adapters';
import {
  BalanceBook,
  GameTable,
  InFlightRounds,
  resolveRound,
  RoundStreams,
  SessionRepository,
  SpinLocks,
  SpinService,
  startRoundOutbox,
  type RoundDeps,
  type RoundOutbox,
} from '@reelstream/game-application';
import type { GameServerConfig } from './config/game-server-env.js';
import { createGameServerApp } from './http/app.js';
import { observeRoundOutbox } from './outbox-metrics.js';

export interface GameServerDeps {
  store: EventStore;
  /** Where the round outbox keeps its checkpoint (the event store's own). */
  checkpoints: CheckpointStore;
  bus: MessageBus;
  catalog: Catalog;
  clock: Clock;
  ids: IdGenerator;
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
  readonly outbox: RoundOutbox;
  /** Stops accepting, lets requests in flight finish (up to `drainMs`), then stops the outbox. */
  stop(drainMs?: number): Promise<void>;
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
    ledger: playerStreamLedger({ store, clock, ids }),
    balances: new BalanceBook(config.demoBalance),
    table,
    ids,
    clock,
    rng: deps.rng ?? cryptoRng,
    logger,
    inFlight: new InFlightRounds(),
  };
  const sessions = new SessionRepository(store, clock);
  const spins = new SpinService({ round, sessions, table, locks: new SpinLocks() });

  const outbox = startRoundOutbox({
    store,
    checkpoints: deps.checkpoints,
    bus,
    rounds,
    clock,
    logger,
    resolveAfterMs: config.resolveAfterMs,
    resolveIntervalMs: config.resolveIntervalMs ?? 1_000,
    isInFlight: (roundId) => round.inFlight.has(roundId),
    resolve: async (started) => {
      const resolution = await resolveRound(round, started);
      logger.info('open round resolved', { roundId: started.roundId, resolution });
    },
  });

  let accepting = true;
  const app = createGameServerApp({
    store,
    sessions,
    table,
    ledger: round.ledger,
    balances: round.balances,
    rounds,
    spins,
    operators: deps.operators,
    ready: () => accepting,
    logger,
  });
  const listening: { port?: number } = {};
  const stops = new StopSequence();
  stops.add(() => logger.info('game-server stopped', { port: listening.port }));
  stops.add(() => outbox.stop());
  stops.add(observeRoundOutbox(store, deps.checkpoints));
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

  let drainMs = 10_000;
  stops.add(async () => {
    accepting = false;
    await closeGracefully(server, drainMs);
  });
  return {
    port,
    url: reachableUrl(config.host, port),
    outbox,
    stop(drain = 10_000) {
      drainMs = drain;
      return stops.stop();
    },
  };
}
