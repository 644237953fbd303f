/**
 * `reelstream_bonus_state_changes_total` (docs/observability.md): bonus calls entering a state,
 * counted by the process that appends the event, after the append is durable, so a sum over
 * processes and replicas is the total. Three services append them: the gateway registers
 * (ADR 0011), the game-server completes free-spin and Regular Bonus Calls (ADR 0006, 0012), the
 * bonus-ledger cancels and expires; each wraps the store it decides with in this.
 */
import { parseStreamId } from '@reelstream/contracts';
import type { EventStore } from '@reelstream/platform-ports';
import { MetricNames, withAppend, type Metrics } from '@reelstream/platform-telemetry';

/** The state a bonus call enters with each event type (spins do not change it). */
const STATE_OF_EVENT: Readonly<Record<string, string>> = {
  BonusCallRegistered: 'active',
  BonusCallCompleted: 'completed',
  BonusCallExpired: 'expired',
  BonusCallCanceled: 'canceled',
};

/**
 * The store, counting the state changes appended through it to `playerBonus` streams. Operator
 * labels are configured operators only (`isOperator`), `unknown` otherwise: bounded cardinality.
 */
export function countBonusStateChanges(
  store: EventStore,
  metrics: Metrics,
  isOperator: (operatorId: string) => boolean,
): EventStore {
  const changes = metrics.counter<'operator' | 'state'>(MetricNames.bonusStateChanges, {
    description: 'bonus calls entering a state (active, completed, expired, canceled)',
    unit: '{bonus}',
  });
  return withAppend(store, async (streamId, events, options) => {
    const result = await store.append(streamId, events, options);
    const owner = parseStreamId(streamId);
    if (owner?.category === 'playerBonus') {
      const operator = isOperator(owner.operatorId) ? owner.operatorId : 'unknown';
      for (const event of events) {
        const state = STATE_OF_EVENT[event.type];
        if (state !== undefined) changes.add(1, { operator, state });
      }
    }
    return result;
  });
}
