/**
 * What the game-server does with a wallet balance it will not show (docs/adr/0024-implausible-wallet-balances.md):
 * a warning naming the answer, and `reelstream_wallet_implausible_balances_total{operator, reason}`.
 * The answer itself is in its `walletTx` stream, as the dispatcher recorded it.
 */
import type { ImplausibleBalanceSeen } from '@reelstream/game-application';
import { createMetrics, MetricNames, type Logger } from '@reelstream/platform-telemetry';

export function reportImplausibleBalances(
  logger: Logger,
  isConfigured: (operatorId: string) => boolean,
): (seen: ImplausibleBalanceSeen) => void {
  const counter = createMetrics().counter<'operator' | 'reason'>(MetricNames.walletImplausibleBalances, {
    description:
      'wallet answers whose balance is not shown to the player (negative, above the ceiling, not whole minor units)',
    unit: '{answer}',
  });
  return (seen) => {
    logger.warn("the operator's wallet answered a balance no player can have; the player is shown none", { ...seen });
    counter.add(1, { operator: isConfigured(seen.operatorId) ? seen.operatorId : 'unknown', reason: seen.reason });
  };
}
