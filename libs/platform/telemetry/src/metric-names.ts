/**
 * Every metric the services export, named as a Prometheus scrape shows it (the OpenTelemetry
 * Prometheus exporter replaces `.` by `_` and appends `_total` to counters, but adds no unit
 * suffix: the `_seconds` is part of the name). Alerts and dashboards use these names; the list
 * with labels and meaning is docs/observability.md.
 */
export const MetricNames = {
  /** Gauge {group, topic, partition}: messages on the log a consumer group has not consumed yet. */
  busConsumerLag: 'reelstream_bus_consumer_lag',
  /** Gauge {worker}: events not yet sent by a relay/outbox or not yet applied by a projection. */
  workerLag: 'reelstream_worker_lag',
  /** Counter {topic, group}: messages parked on a `.dlq` topic. */
  busMessagesParked: 'reelstream_bus_messages_parked_total',
  /** Counter {operator, command}: wallet callbacks given up (money owed to a player). */
  walletDeadLetters: 'reelstream_wallet_dead_letters_total',
  /**
   * Counter {operator, reason}: `wallet.cancels` messages that sent nothing for want of a readable record
   * (`record_unreadable`: the cancel waits), of a handler that does not fail on it (`handler_failed`: the
   * cancel waits) or of a cancel owed (`no_cancel_requested`, `not_a_cancel`).
   */
  walletCancelsNotDelivered: 'reelstream_wallet_cancels_not_delivered_total',
  /** Gauge {operator}: dead-lettered wins whose scheduled re-drives are over (docs/adr/0016-scheduled-win-redrive.md): a person must act. */
  walletRedriveOver: 'reelstream_wallet_redrive_over',
  /** Counter {operator, command, reason}: bet, betwin and win requests refused because no source event backs them (never sent). */
  walletRequestsRefused: 'reelstream_wallet_requests_refused_total',
  /** Counter {operator, reason}: wallet answers whose balance the game page does not show (docs/adr/0024-implausible-wallet-balances.md). */
  walletImplausibleBalances: 'reelstream_wallet_implausible_balances_total',
  /** Counter {operator, command, outcome}: callback attempts. */
  walletCallbacks: 'reelstream_wallet_callbacks_total',
  /** Histogram {operator, command}: time of one callback attempt, in seconds. */
  walletCallbackDuration: 'reelstream_wallet_callback_duration_seconds',
  /** Counter {operator, to}: operator circuit state changes. */
  walletCircuitChanges: 'reelstream_wallet_circuit_changes_total',
  /** Counter {operator, outcome}: bonus call registrations (`registered` or a refusal code). */
  bonusRegistrations: 'reelstream_bonus_registrations_total',
  /** Counter {operator, state}: bonus calls entering a state. */
  bonusStateChanges: 'reelstream_bonus_state_changes_total',
  /** Gauge: active bonus calls past their expireAt, not expired yet. */
  bonusExpiryOverdue: 'reelstream_bonus_expiry_overdue',
  /** Histogram {outcome}: one event-store append, in seconds. */
  eventStoreAppendDuration: 'reelstream_eventstore_append_duration_seconds',
} as const;

/** Messages parked on a dead-letter topic, by `topic` and consumer `group`: by the bus adapters and by handlers that park themselves. */
export const PARKED_MESSAGES_METRIC = MetricNames.busMessagesParked;

/** Latency buckets in seconds, from a fast local append to a callback near its 4 s time-out. */
export const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 3, 4, 5, 10] as const;
