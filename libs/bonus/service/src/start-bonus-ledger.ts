/**
 * The bonus-ledger service: consumes `bonus.commands` (cancel and the status queries) and answers on
 * `bonus.replies`, keeps the status read model, relays its events to `bonus.events` and the
 * free-spin wins to `wallet.requests`, expires bonus calls on time and registers campaigns. Every part is stopped by
 * `stop()`, so the all-in-one platform can run it beside the other services.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  BONUS_RELAY_CHECKPOINT,
  BonusCommands,
  CAMPAIGN_WORKER_LEASE,
  startCampaignWorker,
  BonusQueries,
  ExpiryScheduler,
  startBonusProjection,
  startBonusRelay,
  type CatalogLookup,
  type OperatorPolicyLookup,
} from '@reelstream/bonus-application';
import { bonusStateChangeCounter, rebuildBonusReadModel, SqliteBonusReadModel } from '@reelstream/bonus-adapters';
import { processDataDirs, startHealthServer, StopSequence } from '@reelstream/platform-http';
import { runLeased, runSharded } from '@reelstream/platform-eventsourcing';
import type { Consumer, LeasesAndFencedCheckpoints, ServicePorts } from '@reelstream/platform-ports';
import { createMetrics, type Logger } from '@reelstream/platform-telemetry';
import { subscribeBonusCommands } from './command-consumer.js';
import { BonusRequestHandler } from './bonus-request-handler.js';
import { observeLedger, registrationCounter } from './ledger-metrics.js';

const EXPIRY_LEASE = 'bonus-ledger.expiry';
const DEFAULT_LEASE_TTL_MS = 10_000;
/** Between two looks at whether the read model caught up, after one that gave up (5 s) or failed. */
const CATCH_UP_RETRY_MS = 250;

export interface BonusLedgerDeps extends ServicePorts {
  /** The relay's and the expiry timer's leases, and the relay's fenced checkpoint (the event store's own). */
  leases: LeasesAndFencedCheckpoints;
  /** This replica's `INSTANCE_ID`: the owner of its leases. */
  instanceId: string;
  operators: OperatorPolicyLookup;
  catalog: CatalogLookup;
  logger: Logger;
}

export interface BonusLedgerConfig {
  /** The read model's SQLite file, this replica's own (`readModelPath(READ_MODEL_DIR, INSTANCE_ID)`). */
  readModelFile: string;
  /** `LEASE_TTL_MS`: another replica takes the relay or the expiry timer over this long after the holder stopped renewing. Default 10 s. */
  leaseTtlMs?: number;
  /** 0 picks a free port. */
  healthPort: number;
  /** The health server's interface. Default every interface (a probe comes from outside the pod). */
  healthHost?: string;
  /** Drop the read model and project it again from the log before starting. */
  rebuildReadModel?: boolean;
  /**
   * `BONUS_RELAY_SHARDS`: how many shards the relay is split into; a replica takes its share of the command
   * group's partitions of them. Default 1, one relay.
   */
  relayShards?: number;
  /** Consumer group of `bonus.commands`. Default `bonus-ledger`. */
  groupId?: string;
}

export interface BonusLedger {
  readonly healthPort: number;
  readonly readModel: SqliteBonusReadModel;
  /** Resolves when every bonus event stored so far is in the read model. */
  caughtUp(): Promise<void>;
  /** True while this replica holds a lease of the relay (one of its shards) and relays. */
  readonly relaying: boolean;
  /** The relay's shards this replica works on ([0] for a relay not split, while it holds its lease). */
  readonly relayShards: readonly number[];
  /** True while this replica holds the expiry timer's lease. */
  readonly expiring: boolean;
  /** True while this replica holds the campaign worker's lease (and registers campaigns). */
  readonly campaigning: boolean;
  /** Stops like a killed process would: the leases are not released, so the other replicas wait out the ttl. For tests. */
  abandon(): Promise<void>;
  /** Stops consuming (in-flight messages finish and commit), then the timer, the relay and the projection. */
  stop(): Promise<void>;
}

// Long because: the service's wiring in start order, one call per step, with the stop sequence registered step by step
// alongside.
export async function startBonusLedger(deps: BonusLedgerDeps, config: BonusLedgerConfig): Promise<BonusLedger> {
  const { bus, logger } = deps;
  const metrics = createMetrics();
  const { store } = deps;
  mkdirSync(dirname(config.readModelFile), { recursive: true });
  const readModel = SqliteBonusReadModel.open(config.readModelFile, {
    comparePositions: (a, b) => store.comparePositions(a, b),
  });
  if (config.rebuildReadModel) {
    const applied = await rebuildBonusReadModel(store, readModel);
    logger.info('read model rebuilt from the log', { events: applied });
  }

  const stops = new StopSequence();
  let stopping = false;
  stops.add(() => readModel.close());
  // A full or read-only read-model disk takes the replica out of rotation (`/readyz` 503 naming the directory).
  const unwatch = processDataDirs.watch(dirname(config.readModelFile));
  stops.add(() => Promise.resolve(unwatch()));
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

    // One relay and one expiry timer across the replicas: each runs where its lease is held
    // (docs/adr/0005-leases-and-fencing.md). The read model is every replica's own.
    const ttlMs = config.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
    const leaseLog = (worker: string) => (change: string, lease: { name: string; token: number }) =>
      logger.info(`lease ${change}`, { worker, lease: lease.name, token: lease.token, instanceId: deps.instanceId });
    // Every service's bonus state changes, counted once, as the one relay publishes them.
    const countStateChange = bonusStateChangeCounter(metrics, (operatorId) => deps.operators(operatorId) !== undefined);
    // The relay, split into shards when BONUS_RELAY_SHARDS says so: each replica takes its share of the
    // command group's partitions of them (docs/adr/0045-outbox-and-relay-split-into-shards.md).
    const commandGroup: { consumer?: Consumer } = {};
    const relay = runSharded({
      leases: deps.leases,
      positions: store,
      name: BONUS_RELAY_CHECKPOINT,
      owner: deps.instanceId,
      ttlMs,
      count: config.relayShards ?? 1,
      share: () => commandGroup.consumer?.share ?? 0,
      start: (shard) =>
        startBonusRelay({
          store,
          ...shard,
          bus,
          takesWebhooks: (operatorId) => deps.operators(operatorId)?.webhookUrl !== undefined,
          onRelayed: countStateChange,
          onError: (error) => logger.error('bonus event relay failed; retrying', { error, shard: shard.name }),
        }),
      onChange: leaseLog('relay'),
      onError: (error) => logger.error('bonus event relay lease failed', { error }),
    });
    const expiry = runLeased({
      leases: deps.leases,
      name: EXPIRY_LEASE,
      owner: deps.instanceId,
      ttlMs,
      start: (guard) => {
        const scheduler = new ExpiryScheduler({
          readModel,
          clock: deps.clock,
          expire: async (target) => {
            if (!guard.held()) throw new Error('the expiry lease is no longer held: nothing expired');
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
        return {
          stop: async () => {
            if (timer.scheduler === scheduler) timer.scheduler = undefined;
            await scheduler.stop();
          },
        };
      },
      onChange: leaseLog('expiry'),
      onError: (error) => logger.error('bonus expiry lease failed', { error }),
    });
    const countRegistration = registrationCounter(metrics, deps.operators);
    // Campaigns (docs/adr/0010-campaigns.md): each player registered as a single registration is.
    const campaigns = runLeased({
      leases: deps.leases,
      name: CAMPAIGN_WORKER_LEASE,
      owner: deps.instanceId,
      ttlMs,
      start: (guard) =>
        startCampaignWorker({
          store,
          checkpoints: guard.checkpoints,
          clock: deps.clock,
          // Counted as the gateway counts its registrations (reelstream_bonus_registrations_total).
          register: async (data, origin) => {
            const answer = await commands.register(data, origin);
            countRegistration(data.operatorId, answer);
            return answer;
          },
          held: () => guard.held(),
          onProgress: (progress) => logger.info('campaign progress', progress),
          onError: (error) => logger.error('campaign worker failed; retrying', { error }),
        }),
      onChange: leaseLog('campaigns'),
      onError: (error) => logger.error('campaign worker lease failed', { error }),
    });
    const leased = [relay, expiry, campaigns];
    stops.add(() => Promise.all(leased.map((runner) => runner.stop())).then(() => undefined));

    stops.add(
      observeLedger(metrics, {
        store,
        checkpoints: deps.leases,
        relayCheckpoint: BONUS_RELAY_CHECKPOINT,
        relayShards: config.relayShards ?? 1,
        readModel,
        clock: deps.clock,
      }),
    );
    const consumer = await subscribeBonusCommands(
      bus,
      new BonusRequestHandler(commands, queries),
      logger,
      config.groupId,
    );
    commandGroup.consumer = consumer;
    stops.add(() => consumer.stop());
    let consuming = false;
    void consumer.ready.then(() => {
      consuming = true;
    });

    // Ready once the read model caught up with the log as it was at start (it resumes from its own
    // stored position after a restart); progress goes to the log meanwhile.
    let caughtUp = false;
    void (async () => {
      for (;;) {
        try {
          await projection.caughtUp();
          caughtUp = true;
          logger.info('read model caught up', { position: projection.handledPosition });
          return;
        } catch (error) {
          if (stopping) return;
          logger.info('read model catching up', { position: projection.handledPosition, error });
          await new Promise((resolve) => setTimeout(resolve, CATCH_UP_RETRY_MS));
        }
      }
    })();

    const health = await startHealthServer({ port: config.healthPort, host: config.healthHost }, async () => {
      // A consumer being recreated after a crash takes no commands: the process is not ready.
      if (!consuming || !consumer.healthy || !caughtUp) return { ready: false };
      await store.streamRevision('$ready-probe');
      return { ready: true };
    });
    stops.add(() => health.close());
    await consumer.ready;

    return {
      healthPort: health.port,
      readModel,
      caughtUp: () => projection.caughtUp(),
      get relaying() {
        return relay.holding;
      },
      get relayShards() {
        return relay.held;
      },
      get expiring() {
        return expiry.holding;
      },
      get campaigning() {
        return campaigns.holding;
      },
      stop: () => {
        stopping = true;
        return stops.stop();
      },
      abandon: async () => {
        stopping = true;
        await Promise.all(leased.map((runner) => runner.abandon()));
        await stops.stop();
      },
    };
  } catch (error) {
    stopping = true;
    await stops.stop();
    throw error;
  }
}
