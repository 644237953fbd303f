/**
 * The ledger's metrics: its campaign worker's registrations by outcome (bonus calls entering a state are counted by the
 * relay, `bonusStateChangeCounter` of @reelstream/bonus-adapters), how far the relay
 * and the read model are behind the log, and how many active calls are past their expireAt.
 * Operator labels are configured operator ids only (`unknown` otherwise): bounded cardinality.
 */
import { PLAYER_BONUS_FILTER, type ExpiryTarget, type OperatorPolicyLookup } from '@reelstream/bonus-application';
import { pendingEvents, PENDING_EVENTS_CAP, slowestShardCheckpoint } from '@reelstream/platform-eventsourcing';
import type { CheckpointStore, Clock, EventStore, Position } from '@reelstream/platform-ports';
import { MetricNames, type Metrics } from '@reelstream/platform-telemetry';
import { isRefusal } from '@reelstream/contracts';

function operatorLabel(operators: OperatorPolicyLookup, operatorId: unknown): string {
  return typeof operatorId === 'string' && operators(operatorId) !== undefined ? operatorId : 'unknown';
}

/** Counts each registration decided by outcome: `ok`, or the refusal's error code. */
export function registrationCounter(metrics: Metrics, operators: OperatorPolicyLookup) {
  const registrations = metrics.counter<'operator' | 'outcome'>(MetricNames.bonusRegistrations, {
    description: 'registrations decided, by outcome (ok or the error code)',
    unit: '{request}',
  });
  return (operatorId: string, answer: unknown): void => {
    registrations.add(1, {
      operator: operatorLabel(operators, operatorId),
      outcome: isRefusal(answer) ? answer.code : 'ok',
    });
  };
}

interface LedgerGaugeSources {
  store: EventStore;
  /** Where the relay's checkpoint is read (the fenced store the relay writes under its lease). */
  checkpoints: Pick<CheckpointStore, 'load'>;
  /** The relay's checkpoint name. */
  relayCheckpoint: string;
  /** How many shards the relay is split into: its lag is its slowest shard's. */
  relayShards: number;
  readModel: {
    checkpoint(): Promise<Position | undefined>;
    dueForExpiry(instant: string, limit: number): Promise<ExpiryTarget[]>;
  };
  clock: Clock;
}

/** Registers the ledger's gauges; returns what unregisters them. */
export function observeLedger(metrics: Metrics, sources: LedgerGaugeSources): () => void {
  const { store } = sources;
  const stopLag = metrics.observableGauge<'worker'>(
    MetricNames.workerLag,
    {
      description: `events not yet sent by a relay/outbox or applied by a projection (counted up to ${PENDING_EVENTS_CAP})`,
    },
    async () => [
      {
        value: await pendingEvents(
          store,
          await slowestShardCheckpoint(sources.relayCheckpoint, sources.relayShards, sources.checkpoints, store),
          PLAYER_BONUS_FILTER,
        ),
        attributes: { worker: 'bonus-relay' },
      },
      {
        value: await pendingEvents(store, await sources.readModel.checkpoint(), PLAYER_BONUS_FILTER),
        attributes: { worker: 'bonus-projection' },
      },
    ],
  );
  const stopOverdue = metrics.observableGauge(
    MetricNames.bonusExpiryOverdue,
    { description: `active bonus calls past their expireAt, not expired yet (counted up to ${PENDING_EVENTS_CAP})` },
    async () => [
      {
        value: (await sources.readModel.dueForExpiry(sources.clock.now().toISOString(), PENDING_EVENTS_CAP)).length,
      },
    ],
  );
  return () => {
    stopLag();
    stopOverdue();
  };
}
