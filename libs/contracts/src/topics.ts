/**
 * Bus topics (DESIGN §4) and the key each is partitioned by. Per-key order is kept end to end,
 * so every producer of a topic must key it the same way: use these functions.
 */

export const Topics = {
  /** Commands and queries to the bonus-ledger. Key: playerId (see `bonusCommandKey`). */
  bonusCommands: 'bonus.commands',
  /** Ledger replies, to the instance named in `reply-to`. Key: correlationId. */
  bonusReplies: 'bonus.replies',
  /** Bonus events relayed from the store with a checkpoint. Key: playerId. */
  bonusEvents: 'bonus.events',
  /** Wallet requests to the dispatcher: a round's bet before its win. Key: playerId. */
  walletRequests: 'wallet.requests',
  /** Dispatcher replies to the requester. Key: correlationId. */
  walletReplies: 'wallet.replies',
  /** Wins parked after their retries (D11), for reconciliation. Key: playerId. */
  walletDeadLetters: 'wallet.dead-letters',
  /**
   * Cancels (D9) waiting for the operator's OK: the dispatcher's own work queue, retried with
   * backoff and never parked, so a pending cancel survives restarts. Key: playerId.
   */
  walletCancels: 'wallet.cancels',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

export const TopicKeys = {
  'bonus.commands': 'playerId',
  'bonus.replies': 'correlationId',
  'bonus.events': 'playerId',
  'wallet.requests': 'playerId',
  'wallet.replies': 'correlationId',
  'wallet.dead-letters': 'playerId',
  'wallet.cancels': 'playerId',
} as const satisfies Record<Topic, string>;

/** Key of `wallet.requests`, `wallet.dead-letters` and `bonus.events` messages. */
export function playerKey(message: { playerId: string }): string {
  return message.playerId;
}
