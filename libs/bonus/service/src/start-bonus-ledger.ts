/**
 * The bonus-ledger service: consumes `bonus.commands` (commands and queries) and answers on
 * `bonus.replies`, keeps the status read model, relays its events to `bonus.events` and the
 * free-spin wins to `wallet.requests`, and expires bonus calls on time. Every part is stopped by
 * `stop()`, so the all-in-one platform can run it beside the other services.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  BONUS_RELAY_CHECKPOINT,
  BonusCommands,
  BonusQueries,
  BonusRequestHandler,
  ExpiryScheduler,
  startBonusProjection,
  startBonusRelay,
  type CatalogLookup,
  type OperatorPolicyLookup,
} from '@reelstream/bonus-application';
import { rebuildBonusReadModel, SqliteBonusReadModel } from '@reelstream/bonus-adapters';
import { startHealthServer, StopSequence } from '@reelstream/http';
import type { CheckpointStore, Clock, EventStore, IdGenerator, MessageBus } from '@reelstream/ports';
import { createMetrics, type Logger } from '@reelstream/telemetry';
import { subscribeBonusCommands } from './command-consumer.js';
import { countBonusStateChanges, observeLedger, registrationCounter } from './ledger-metrics.js';

export interface BonusLedgerDeps {
  store: EventStore;
  /** Where the relay keeps its checkpoint (the event store's own). */
  checkpoints: CheckpointStore;
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  operators: OperatorPolicyLookup;
  catalog: CatalogLookup;
  logger: Logger;
}

export interface BonusLedgerConfig {
  /** The read model's SQLite file (`readModelPath(DATA_DIR)`). */
  readModelFile: string;
  /** 0 picks a free port. */
  healthPort: number;
  /** Drop the read model and project it again from the log before starting. */
  rebuildReadModel?: boolean;
  /** Consumer group of `bonus.commands`. Default `bonus-ledger`. */
  groupId?: string;
}

export interface BonusLedger {
  readonly healthPort: number;
  readonly readModel: SqliteBonusReadModel;
  /** Resolves when every bonus event stored so far is in the read model. */
  caughtUp(): Promise<void>;
  /** Stops consuming (in-flight messages finish and commit), then the timer, the relay and the projection. */
  stop(): Promise<void>;
}

// Long because: the service's wiring in start order, one call per step, with the stop sequence registered step by step
// alongside.
export async function startBonusLedger(deps: BonusLedgerDeps, config: BonusLedgerConfig): Promise<BonusLedger> {
  const { bus, logger } = deps;
  const metrics = createMetrics();
  const store = countBonusStateChanges(deps.store, metrics, deps.operators);
  mkdirSync(dirname(config.readModelFile), { recursive: true });
  const readModel = SqliteBonusReadModel.open(config.readModelFile, {
    comparePositions: (a, b) => store.comparePositions(a, b),
  });
  if (config.rebuildReadModel) {
    const applied = await rebuildBonusReadModel(store, readModel);
    logger.info('read model rebuilt from the log', { events: applied });
  }

  const stops = new StopSequence();
  stops.add(() => readModel.close());
  try {
    // The projection pokes the expiry timer, which reads the projection: created first, started last.
    const timer: { scheduler?: ExpiryScheduler } = {};
    const projection = startBonusProjection({
      store,
      projection: readModel,
      onApplied: (record) => {
        if (record.status === 'active') timer.scheduler?.poke(record.expireAt);
      },
      onError: (error) => logger.error('read model projection failed; retrying', { error }),
    });
    stops.add(() => projection.stop());

    const queries = new BonusQueries(readModel, projection);
    const commands = new BonusCommands({
      store,
      clock: deps.clock,
      ids: deps.ids,
      catalog: deps.catalog,
      operators: deps.operators,
      playerOf: async (operatorId, issueId) => (await queries.find(operatorId, issueId))?.playerId,
    });

    const relay = startBonusRelay({
      store,
      checkpoints: deps.checkpoints,
      bus,
      onError: (error) => logger.error('bonus event relay failed; retrying', { error }),
    });
    stops.add(() => relay.stop());

    const scheduler = new ExpiryScheduler({
      readModel,
      clock: deps.clock,
      expire: async (target) => {
        if (await commands.expireDue(target))
          logger.info('bonus call expired', {
            issueId: target.issueId,
            operatorId: target.operatorId,
            expireAt: target.expireAt,
          });
      },
      onError: (error, target) =>
        logger.error('bonus call expiry failed; retrying', { error, issueId: target?.issueId }),
    });
    timer.scheduler = scheduler;
    scheduler.start();
    stops.add(() => scheduler.stop());

    stops.add(
      observeLedger(metrics, {
        store,
        checkpoints: deps.checkpoints,
        relayCheckpoint: BONUS_RELAY_CHECKPOINT,
        readModel,
        clock: deps.clock,
      }),
    );
    const consumer = await subscribeBonusCommands(
      bus,
      new BonusRequestHandler(commands, queries),
      logger,
      config.groupId,
      registrationCounter(metrics, deps.operators),
    );
    stops.add(() => consumer.stop());
    let consuming = false;
    void consumer.ready.then(() => {
      consuming = true;
    });

    const health = await startHealthServer({ port: config.healthPort }, async () => {
      // A consumer being recreated after a crash takes no commands: the process is not ready.
      if (!consuming || !consumer.healthy) return { ready: false };
      await store.streamRevision('$ready-probe');
      return { ready: true };
    });
    stops.add(() => health.close());
    await consumer.ready;

    return {
      healthPort: health.port,
      readModel,
      caughtUp: () => projection.caughtUp(),
      stop: () => stops.stop(),
    };
  } catch (error) {
    await stops.stop();
    throw error;
  }
}
