/**
 * Bus topics (docs/architecture.md "Data") and the key each is partitioned by. Per-key order is kept end to end,
 * so every producer of a topic must key it the same way: use these functions.
 */

export const Topics = {
  /** Commands and queries to the bonus-ledger. Key: operator and player (see `bonusCommandKey`). */
  bonusCommands: 'bonus.commands',
  /** Ledger replies, to the instance named in `reply-to`. Key: correlationId. */
  bonusReplies: 'bonus.replies',
  /** Bonus events relayed from the store with a checkpoint. Key: operator and player (`playerKey`). */
  bonusEvents: 'bonus.events',
  /** Wallet requests to the dispatcher: a round's bet before its win. Key: operator and player (`playerKey`). */
  walletRequests: 'wallet.requests',
  /** Dispatcher replies to the requester. Key: correlationId. */
  walletReplies: 'wallet.replies',
  /** Wins parked after their retries (D11), for reconciliation. Key: operator and player (`playerKey`). */
  walletDeadLetters: 'wallet.dead-letters',
  /**
   * Cancels (D9) waiting for the operator's OK: the dispatcher's own work queue, retried with
   * backoff and never parked, so a pending cancel survives restarts. Key: operator and player (`playerKey`).
   */
  walletCancels: 'wallet.cancels',
  /**
   * Delay topics (the non-blocking retry pattern): a `wallet.cancels`, `wallet.requests` or
   * `bonus.webhooks` message rescheduled not before a time — a cancel the operator did not
   * acknowledge, an operator whose circuit is open or that is not configured, a webhook waiting for
   * its next attempt — so its own partition moves on. Each topic holds one delay, so its head is
   * always the earliest due; the dispatcher re-publishes each message to the topic it came from
   * when due. Key: the original's (`playerKey`, or a webhook's `bonusWebhookKey`).
   */
  walletRetry1s: 'wallet.retry.1s',
  walletRetry5s: 'wallet.retry.5s',
  walletRetry30s: 'wallet.retry.30s',
  /**
   * Bonus webhooks relayed by the bonus-ledger, delivered by the wallet dispatcher; retried through
   * the delay topics, parked on `bonus.webhooks.dlq` after their attempts. Key: operator and bonus (`bonusWebhookKey`), so one bonus's changes stay in order.
   */
  bonusWebhooks: 'bonus.webhooks',
  /**
   * Nobody publishes here. Every gateway pod joins the `gateway` consumer group on it: its share of the
   * partitions is its share of each operator's rate limits and campaign budget
   * (docs/adr/0042-gateway-limits-divided-by-a-group-of-its-own.md). No key.
   */
  gatewayLimits: 'gateway.limits',
  /**
   * Nobody publishes here either. Every game-server pod joins the `game-server` group on it: its share of
   * the partitions is its part of the round outbox's shards
   * (docs/adr/0045-outbox-and-relay-split-into-shards.md). No key.
   */
  gameServerShares: 'game-server.shares',
} as const;
export type Topic = (typeof Topics)[keyof typeof Topics];

export const TopicKeys = {
  'bonus.commands': 'operatorId:playerId',
  'bonus.replies': 'correlationId',
  'bonus.events': 'operatorId:playerId',
  'wallet.requests': 'operatorId:playerId',
  'wallet.replies': 'correlationId',
  'wallet.dead-letters': 'operatorId:playerId',
  'wallet.cancels': 'operatorId:playerId',
  'wallet.retry.1s': 'operatorId:playerId | operatorId:issueId',
  'wallet.retry.5s': 'operatorId:playerId | operatorId:issueId',
  'wallet.retry.30s': 'operatorId:playerId | operatorId:issueId',
  'bonus.webhooks': 'operatorId:issueId',
  'gateway.limits': 'none: nothing is published',
  'game-server.shares': 'none: nothing is published',
} as const satisfies Record<Topic, string>;

/**
 * Topics whose partition count is part of their meaning, whatever the bus's default (`KAFKA_PARTITIONS`,
 * a `sqlite:` URL's `partitions`). `gateway.limits`: 240 divides evenly among 1–6, 8, 10, 12, 15, 16, 20,
 * 24 and 30 gateway pods, and gives each of the autoscaler's up to 32 pods at least 7; in between, pods
 * that hold one partition fewer refuse a little early, so traffic spread evenly over them gets at least 90 %
 * of a limit (27 pods, the worst; 64 partitions would give 69 %).
 * The reply topics (`bonus.replies`, `wallet.replies`): 64. A requester reads one partition, its worker id
 * modulo the count, and its requests name it (docs/adr/0044-replies-routed-to-the-instance-that-asked.md);
 * the pods of the one workload that asks on each (the gateway, the game-server) have consecutive worker ids,
 * so up to 64 of them read a partition each, twice the autoscalers' 32.
 * `game-server.shares`: 240, as `gateway.limits`, so that a pod's share times a shard count (a power of two up
 * to 64) comes close to its even part.
 */
export const TopicPartitions: Readonly<Partial<Record<string, number>>> = {
  'gateway.limits': 240,
  'game-server.shares': 240,
  'bonus.replies': 64,
  'wallet.replies': 64,
};

/** The group every gateway pod joins on `gateway.limits` (its share divides the gateway's limits). */
export const GATEWAY_LIMITS_GROUP = 'gateway';

/** The group every game-server pod joins on `game-server.shares` (its share is its part of the outbox's shards). */
export const GAME_SERVER_SHARES_GROUP = 'game-server';

/**
 * Key of every message about one player (`wallet.requests`, `wallet.cancels`,
 * `wallet.dead-letters`, `bonus.events`, a player's `bonus.commands`). A playerId belongs to its
 * operator (two operators may both have a `player_1`), so the key names the operator too.
 */
export function playerKey(message: { operatorId: string; playerId: string }): string {
  return `${message.operatorId}:${message.playerId}`;
}

/** Key of a `bonus.webhooks` message: one bonus call of one operator. */
export function bonusWebhookKey(message: { operatorId: string; bonusId: number }): string {
  return `${message.operatorId}:${message.bonusId}`;
}
