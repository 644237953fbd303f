/**
 * The dispatcher's consumer groups and their failure classes:
 * - `wallet.requests`: a message that cannot be acted on (invalid, unknown operator, reused
 *   transactionId) is parked by the handler itself; operator failures are recorded outcomes; a
 *   win the operator's bulkhead did not send is rescheduled on a delay topic; a failure the
 *   handler cannot mend (a non-retriable error, or one nothing classified ten times: failures.ts)
 *   is given up as a recorded failure — a bet or betwin failed for good with its cancel, a win
 *   dead-lettered — and the message parked; a retriable one (store or bus unreachable) is retried
 *   with back-off for as long as it lasts.
 * - `wallet.cancels`: one attempt per delivery; until the operator's OK the cancel is rescheduled
 *   on a delay topic (never parked, D9), so its partition moves on; so is one whose handler keeps
 *   failing.
 * - the delay topics: each message waits until due, then goes back to its topic.
 * - `bonus.webhooks`: sent through the operator's webhook bulkhead; a webhook not delivered is
 *   rescheduled on a delay topic (its bonus's later changes follow it there), parked after
 *   `WEBHOOK_MAX_ATTEMPTS`; what is left is infrastructure, retried in place. Nothing of money
 *   depends on it.
 * Several keys of a partition are handled at once (`keyConcurrency`): one player's slow callback
 * holds only that player's later messages.
 */
import { Topics } from '@reelstream/contracts';
import { defaultRetryDelayMs, type Message, type SubscribeOptions } from '@reelstream/platform-ports';
import { cancelRetryDelayMs } from '@reelstream/wallet-domain';
import { OperatorUnavailableError } from './deliver.js';
import { dispatchContext, type DispatchContext, type WalletDispatchDeps } from './dispatch-context.js';
import { handleCancelDelivery } from './handle-cancel.js';
import { handleWalletRequest } from './handle-request.js';
import { handleDelayedMessage, NotDueYet, reschedule, RetryTiers } from './reschedule.js';
import { defaultBulkheadLimits, OperatorBulkhead } from './operator-bulkhead.js';
import { bonusWebhookHandler, type WebhookSender } from './webhooks.js';

const WalletConsumerGroups = {
  requests: 'wallet-dispatcher',
  cancels: 'wallet-dispatcher.cancels',
  delayed: 'wallet-dispatcher.delayed',
  webhooks: 'wallet-dispatcher.webhooks',
} as const;

/**
 * The bus never parks these groups' messages (as many attempts as a number can count): its parking
 * records nothing, so each handler gives up what it cannot mend itself, recorded (failures.ts).
 */
const NEVER_PARK = Number.MAX_SAFE_INTEGER;

/** Default messages of one partition in handlers at once (distinct keys). */
export const DEFAULT_KEY_CONCURRENCY = 32;

export interface WalletSubscriptionOptions {
  partitionsConsumedConcurrently?: number;
  /** Messages of one partition in handlers at once, never two of one player. Default 32. */
  keyConcurrency?: number;
  /** Sends bonus webhooks; without it there is no `webhooks` subscription. */
  webhooks?: WebhookSender;
  /** Backoff between webhook attempts. Default `webhookRetryDelayMs`. */
  webhookRetryDelayMs?: (attempt: number) => number;
  /** The operators' webhook compartments. Default: the default bulkhead limits for every operator. */
  webhookBulkhead?: OperatorBulkhead;
}

/**
 * A handler that logs a failure with its place and attempt, then throws it on for the consumer to retry.
 * `handle` gets the consumer's signal (the operator call it makes is aborted when the bus abandons the
 * attempt) and the attempt, with which it gives up a failure it cannot mend (failures.ts).
 */
function retriedOnFailure(
  log: WalletDispatchDeps['log'],
  what: string,
  handle: (message: Message, signal: AbortSignal, attempt: number) => Promise<void>,
): SubscribeOptions['handler'] {
  return async (message, { attempt, signal }) => {
    try {
      await handle(message, signal, attempt);
    } catch (error) {
      log.error(`${what} not handled; retried`, {
        offset: message.offset,
        partition: message.partition,
        attempt,
        error,
      });
      throw error;
    }
  };
}

export function walletSubscriptions(
  deps: WalletDispatchDeps,
  options: WalletSubscriptionOptions = {},
): {
  requests: SubscribeOptions;
  cancels: SubscribeOptions;
  delayed: SubscribeOptions;
  webhooks: SubscribeOptions | undefined;
} {
  const context = dispatchContext(deps);
  const concurrency = {
    keyConcurrency: options.keyConcurrency ?? DEFAULT_KEY_CONCURRENCY,
    ...(options.partitionsConsumedConcurrently === undefined
      ? {}
      : { partitionsConsumedConcurrently: options.partitionsConsumedConcurrently }),
  };
  return {
    webhooks: webhooksSubscription(context, options, concurrency),
    requests: {
      groupId: WalletConsumerGroups.requests,
      topics: [Topics.walletRequests],
      handler: retriedOnFailure(deps.log, 'wallet request', async (message, signal, attempt) => {
        try {
          await handleWalletRequest(context, message, signal, attempt);
        } catch (error) {
          if (!(error instanceof OperatorUnavailableError)) throw error;
          // The reason names the win (`win <transactionId>: <why>`): its player's later requests go on before it.
          await reschedule(context, message, error.retryAfterMs, error.message);
        }
      }),
      maxAttempts: NEVER_PARK,
      retryDelayMs: defaultRetryDelayMs,
      ...concurrency,
    },
    cancels: {
      groupId: WalletConsumerGroups.cancels,
      topics: [Topics.walletCancels],
      handler: retriedOnFailure(deps.log, 'cancel', (message, signal, attempt) =>
        handleCancelDelivery(context, message, signal, attempt),
      ),
      maxAttempts: NEVER_PARK,
      retryDelayMs: cancelRetryDelayMs,
      ...concurrency,
    },
    delayed: delayedSubscription(context, options),
  };
}

/** Bonus webhooks, when there is a sender, each operator's in its own compartment of the bulkhead. */
function webhooksSubscription(
  context: DispatchContext,
  options: WalletSubscriptionOptions,
  concurrency: Pick<SubscribeOptions, 'keyConcurrency' | 'partitionsConsumedConcurrently'>,
): SubscribeOptions | undefined {
  const { deps } = context;
  const sender = options.webhooks;
  if (!sender) return undefined;
  const handler = bonusWebhookHandler(context, {
    sender,
    bulkhead:
      options.webhookBulkhead ??
      new OperatorBulkhead({ limitsOf: () => defaultBulkheadLimits, now: () => deps.clock.now().getTime() }),
    ...(options.webhookRetryDelayMs === undefined ? {} : { retryDelayMs: options.webhookRetryDelayMs }),
  });
  return {
    groupId: WalletConsumerGroups.webhooks,
    topics: [Topics.bonusWebhooks],
    handler: retriedOnFailure(deps.log, 'bonus webhook', (message, _signal, attempt) => handler(message, attempt)),
    maxAttempts: NEVER_PARK,
    retryDelayMs: defaultRetryDelayMs,
    ...concurrency,
  };
}

/** The delay topics of the retry tiers: each message waits until due, then is re-published to its topic. */
function delayedSubscription(context: DispatchContext, options: WalletSubscriptionOptions): SubscribeOptions {
  const { deps } = context;
  return {
    groupId: WalletConsumerGroups.delayed,
    topics: RetryTiers.map((tier) => tier.topic),
    handler: async (message, { attempt }) => {
      try {
        await handleDelayedMessage(context, message);
      } catch (error) {
        if (!(error instanceof NotDueYet)) {
          deps.log.error('delayed message not handled; retried', {
            topic: message.topic,
            offset: message.offset,
            partition: message.partition,
            attempt,
            error,
          });
          await context.sleep(defaultRetryDelayMs(attempt));
        }
        throw error;
      }
    },
    maxAttempts: NEVER_PARK,
    // A head that is not due yet is looked at again at once (its handler already waited); a failure backed off in the handler.
    retryDelayMs: () => 0,
    ...(options.partitionsConsumedConcurrently === undefined
      ? {}
      : { partitionsConsumedConcurrently: options.partitionsConsumedConcurrently }),
  };
}
