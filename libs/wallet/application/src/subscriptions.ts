/**
 * The dispatcher's two consumer groups and their failure classes:
 * - `wallet.requests`: a message that cannot be acted on (invalid, unknown operator, reused
 *   transactionId) is parked by the handler itself; operator failures are recorded outcomes;
 *   what is left is infrastructure (store or bus unreachable), retried with back-off and never
 *   parked — parking a bet half-way would leave money with the operator and nobody to cancel it.
 * - `wallet.cancels`: retried with the cancel back-off until the operator's OK, never parked (D9).
 */
import { Topics } from '@reelstream/contracts';
import { defaultRetryDelayMs, type SubscribeOptions } from '@reelstream/ports';
import { cancelRetryDelayMs } from '@reelstream/wallet-domain';
import { dispatchContext, type WalletDispatchDeps } from './dispatch-context.js';
import { handleCancelDelivery } from './handle-cancel.js';
import { handleWalletRequest } from './handle-request.js';

export const WalletConsumerGroups = {
  requests: 'wallet-dispatcher',
  cancels: 'wallet-dispatcher.cancels',
} as const;

/** "Never parked": as many attempts as a number can count. */
const NEVER_PARK = Number.MAX_SAFE_INTEGER;

export function walletSubscriptions(deps: WalletDispatchDeps, options: { partitionsConsumedConcurrently?: number } = {}): { requests: SubscribeOptions; cancels: SubscribeOptions } {
  const context = dispatchContext(deps);
  const concurrency = options.partitionsConsumedConcurrently === undefined ? {} : { partitionsConsumedConcurrently: options.partitionsConsumedConcurrently };
  return {
    requests: {
      groupId: WalletConsumerGroups.requests,
      topics: [Topics.walletRequests],
      handler: async (message, { attempt }) => {
        try {
          await handleWalletRequest(context, message);
        } catch (error) {
          deps.log.error('wallet request not handled; retried', { offset: message.offset, partition: message.partition, attempt, error });
          throw error;
        }
      },
      maxAttempts: NEVER_PARK,
      retryDelayMs: defaultRetryDelayMs,
      ...concurrency,
    },
    cancels: {
      groupId: WalletConsumerGroups.cancels,
      topics: [Topics.walletCancels],
      handler: (message) => handleCancelDelivery(context, message),
      maxAttempts: NEVER_PARK,
      retryDelayMs: cancelRetryDelayMs,
      ...concurrency,
    },
  };
}
