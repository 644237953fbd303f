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
 * - the delay topics: each message waits until due, then goes back to its topic. One that cannot be
 *   put back (a non-retriable failure at once, an unclassified one after ten: failures.ts) is given
 *   up as its topic's handler gives it up (delayed-give-up.ts): a win dead-lettered, a bet or betwin
 *   failed with its cancel and parked, a cancel kept waiting on the longest delay topic, a webhook
 *   dead-lettered and parked; a retriable failure is retried with back-off.
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
import { giveUpDelayedMessage, type WebhookGiveUp } from './delayed-give-up.js';
import { dispatchContext, type DispatchContext, type WalletDispatchDeps } from './dispatch-context.js';
import { asError, givesUp } from './failures.js';
import { handleCancelDelivery } from './handle-cancel.js';
import { handleWalletRequest } from './handle-request.js';
import { handleDelayedMessage, NotDueYet, reschedule, RetryTiers } from './reschedule.js';
import { defaultBulkheadLimits, OperatorBulkhead } from './operator-bulkhead.js';
import { bonusWebhookHandler, giveUpDelayedWebhook, type BonusWebhookHandler, type WebhookSender } from './webhooks.js';

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
  const webhookHandler = bonusWebhooks(context, options);
  return {
    webhooks: webhookHandler && webhooksSubscription(context, webhookHandler, concurrency),
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
    delayed: delayedSubscription(
      context,
      options,
      webhookHandler?.giveUpDelayed ??
        (async (message, failure) => void (await giveUpDelayedWebhook(context, message, failure))),
    ),
  };
}

/** The handler of bonus webhooks, when there is a sender, each operator's in its own compartment of the bulkhead. */
function bonusWebhooks(context: DispatchContext, options: WalletSubscriptionOptions): BonusWebhookHandler | undefined {
  const { deps } = context;
  const sender = options.webhooks;
  if (!sender) return undefined;
  return bonusWebhookHandler(context, {
    sender,
    bulkhead:
      options.webhookBulkhead ??
      new OperatorBulkhead({ limitsOf: () => defaultBulkheadLimits, now: () => deps.clock.now().getTime() }),
    ...(options.webhookRetryDelayMs === undefined ? {} : { retryDelayMs: options.webhookRetryDelayMs }),
  });
}

function webhooksSubscription(
  context: DispatchContext,
  handler: BonusWebhookHandler,
  concurrency: Pick<SubscribeOptions, 'keyConcurrency' | 'partitionsConsumedConcurrently'>,
): SubscribeOptions {
  const { deps } = context;
  return {
    groupId: WalletConsumerGroups.webhooks,
    topics: [Topics.bonusWebhooks],
    handler: retriedOnFailure(deps.log, 'bonus webhook', (message, _signal, attempt) => handler(message, attempt)),
    maxAttempts: NEVER_PARK,
    retryDelayMs: defaultRetryDelayMs,
    ...concurrency,
  };
}

/**
 * The delay topics of the retry tiers: each message waits until due, then is re-published to its
 * topic; one it cannot re-publish and cannot mend is given up, recorded, so the partition moves on.
 */
function delayedSubscription(
  context: DispatchContext,
  options: WalletSubscriptionOptions,
  giveUpWebhook: WebhookGiveUp,
): SubscribeOptions {
  const { deps } = context;
  return {
    groupId: WalletConsumerGroups.delayed,
    topics: RetryTiers.map((tier) => tier.topic),
    handler: async (message, { attempt }) => {
      try {
        await handleDelayedMessage(context, message);
      } catch (error) {
        if (error instanceof NotDueYet) throw error;
        let failure = error;
        if (givesUp(error, attempt)) {
          try {
            await giveUpDelayedMessage(context, message, asError(error), attempt, giveUpWebhook);
            return;
          } catch (failedGiveUp) {
            // Nothing recorded (the store or the bus refused it): retried like any failure.
            failure = failedGiveUp;
          }
        }
        deps.log.error('delayed message not handled; retried', {
          topic: message.topic,
          offset: message.offset,
          partition: message.partition,
          attempt,
          error: failure,
        });
        await context.sleep(defaultRetryDelayMs(attempt));
        throw failure;
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
