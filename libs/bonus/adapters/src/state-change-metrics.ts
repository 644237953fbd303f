/**
 * `reelstream_bonus_state_changes_total` (docs/observability.md): bonus calls entering a state,
 * counted by the bonus-ledger's relay as it publishes each event of the `playerBonus` streams,
 * whichever service appended it (the gateway registers, ADR 0011; the game-server completes
 * free-spin and Regular Bonus Calls, ADR 0006 and 0012; the bonus-ledger cancels and expires). One
 * relay runs at a time (its lease), so a sum over the ledger's replicas is the total.
 */
import type { PlayerBonusEvent } from '@reelstream/contracts';
import { MetricNames, type Metrics } from '@reelstream/platform-telemetry';

/** The state a bonus call enters with each event type (spins do not change it). */
const STATE_OF_EVENT: Readonly<Partial<Record<PlayerBonusEvent['type'], string>>> = {
  BonusCallRegistered: 'active',
  BonusCallCompleted: 'completed',
  BonusCallExpired: 'expired',
  BonusCallCanceled: 'canceled',
};

/**
 * Counts one relayed event of an operator's `playerBonus` stream when it changes its bonus call's
 * state. Operator labels are configured operators only (`isOperator`), `unknown` otherwise: bounded
 * cardinality.
 */
export function bonusStateChangeCounter(
  metrics: Metrics,
  isOperator: (operatorId: string) => boolean,
): (operatorId: string, event: PlayerBonusEvent) => void {
  const changes = metrics.counter<'operator' | 'state'>(MetricNames.bonusStateChanges, {
    description: 'bonus calls entering a state (active, completed, expired, canceled)',
    unit: '{bonus}',
  });
  return (operatorId, event) => {
    const state = STATE_OF_EVENT[event.type];
    if (state !== undefined) changes.add(1, { operator: isOperator(operatorId) ? operatorId : 'unknown', state });
  };
}
