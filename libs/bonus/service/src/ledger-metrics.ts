/**
 * The ledger's metrics: registrations by outcome, bonus calls entering a state, how far the relay
 * and the read model are behind the log, and how many active calls are past their expireAt.
 * Operator labels are configured operator ids only (`unknown` otherwise): bounded cardinality.
 */
import { PLAYER_BONUS_FILTER, type ExpiryTarget, type OperatorPolicyLookup } from '@reelstream/bonus-application';
import { parseStreamId } from '@reelstream/contracts';
import { pendingEvents, PENDING_EVENTS_CAP } from '@reelstream/eventsourcing';
import type { CheckpointStore, Clock, EventStore, Position } from '@reelstream/ports';
import { MetricNames, withAppend, type Metrics } from '@reelstream/telemetry';

/** The state a bonus call enters with each event type (spins do not change it). */
const STATE_OF_EVENT: Readonly<Record<string, string>> = {
  BonusCallRegistered: 'active',
  BonusCallCompleted: 'completed',
  BonusCallExpired: 'expired',
  BonusCallCanceled: 'canceled',
};

function operatorLabel(operators: OperatorPolicyLookup, operatorId: unknown): string {
  return typeof operatorId === 'string' && operators(operatorId) !== undefined ? operatorId : 'unknown';
}

/**
 * Counts the state changes this ledger appends (`reelstream_bonus_state_changes_total`), after the
 * append is durable. Only the replica that appends counts, so a sum over replicas is the total.
 */
export function countBonusStateChanges(
  store: EventStore,
  metrics: Metrics,
  operators: OperatorPolicyLookup,
): EventStore {
  const changes = metrics.counter<'operator' | 'state'>(MetricNames.bonusStateChanges, {
    description: 'bonus calls entering a state (active, completed, expired, canceled)',
    unit: '{bonus}',
  });
  return withAppend(store, async (streamId, events, options) => {
    const result = await store.append(streamId, events, options);
    const owner = parseStreamId(streamId);
    if (owner?.category === 'playerBonus') {
      const operator = operatorLabel(operators, owner.operatorId);
      for (const event of events) {
        const state = STATE_OF_EVENT[event.type];
        if (state !== undefined) changes.add(1, { operator, state });
      }
    }
    return result;
  });
}

/** What `BonusRequestHandler.handle` answered, as far as the count needs it. */
interface AnsweredRequest {
  type: string | undefined;
  reply: { ok: true } | { ok: false; error: { code: string } };
}

/** Counts each answered RegisterBonusCall by outcome: `ok`, or the refusal's error code. */
export function registrationCounter(metrics: Metrics, operators: OperatorPolicyLookup) {
  const registrations = metrics.counter<'operator' | 'outcome'>(MetricNames.bonusRegistrations, {
    description: 'RegisterBonusCall requests answered, by outcome (ok or the error code)',
    unit: '{request}',
  });
  return (handled: AnsweredRequest, value: unknown): void => {
    if (handled.type !== 'RegisterBonusCall') return;
    const operatorId = (value as { data?: { operatorId?: unknown } }).data?.operatorId;
    registrations.add(1, {
      operator: operatorLabel(operators, operatorId),
      outcome: handled.reply.ok ? 'ok' : handled.reply.error.code,
    });
  };
}

interface LedgerGaugeSources {
  store: EventStore;
  /** Where the relay's checkpoint is read (the fenced store the relay writes under its lease). */
  checkpoints: Pick<CheckpointStore, 'load'>;
  /** The relay's checkpoint name. */
  relayCheckpoint: string;
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
        value: await pendingEvents(store, await sources.checkpoints.load(sources.relayCheckpoint), PLAYER_BONUS_FILTER),
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
