/**
 * The dispatcher's metrics, per configured operator and callback command (bounded label sets:
 * the operator label is an id from the operator directory, never one read from a message).
 */
import { Topics, type CallbackRequest, type OperatorConfig } from '@reelstream/contracts';
import type { MessageBus, OutgoingMessage } from '@reelstream/platform-ports';
import { MetricNames, SECONDS_BUCKETS, type Metrics } from '@reelstream/platform-telemetry';
import {
  CANCEL_NOT_DELIVERED_REASONS,
  type CancelNotDeliveredReason,
  type CircuitState,
  type OperatorLookup,
  type OperatorWallet,
} from '@reelstream/wallet-application';

/** Label of an operator id: itself when configured, `unknown` otherwise (a message names any id it likes). */
function operatorLabel(operators: OperatorLookup, operatorId: unknown): string {
  return typeof operatorId === 'string' && operators.get(operatorId) !== undefined ? operatorId : 'unknown';
}

/** The configured operator ids when the lookup knows them (the operator directory does). */
function configuredOperatorIds(operators: OperatorLookup): string[] {
  const listed = (operators as { operators?: readonly { id: string }[] }).operators;
  return Array.isArray(listed) ? listed.map((operator) => operator.id) : [];
}

/** Counts every attempt (`outcome`: the operator's status code or why there was no reply) and times it. */
export function measuredWallet(wallet: OperatorWallet, metrics: Metrics): OperatorWallet {
  const calls = metrics.counter<'operator' | 'command' | 'outcome'>(MetricNames.walletCallbacks, {
    description: 'wallet callback attempts by operator, command and outcome',
    unit: '{call}',
  });
  const durations = metrics.histogram<'operator' | 'command'>(MetricNames.walletCallbackDuration, {
    description: 'wallet callback attempt duration',
    unit: 's',
    boundaries: SECONDS_BUCKETS,
  });
  const measured: OperatorWallet = {
    async call(
      operator: OperatorConfig,
      body: CallbackRequest,
      timeoutMs: number,
      sendWithinMs?: number,
      signal?: AbortSignal,
    ) {
      const started = performance.now();
      const labels = { operator: operator.id, command: body.command };
      try {
        const result = await wallet.call(operator, body, timeoutMs, sendWithinMs, signal);
        calls.add(1, { ...labels, outcome: result.kind === 'reply' ? result.statusCode : result.cause });
        return result;
      } catch (error) {
        calls.add(1, { ...labels, outcome: 'error' });
        throw error;
      } finally {
        durations.record((performance.now() - started) / 1_000, labels);
      }
    },
  };
  if (wallet.refusingForMs) measured.refusingForMs = (operatorId) => wallet.refusingForMs?.(operatorId);
  return measured;
}

/**
 * Counts the dead letters the dispatcher publishes (a win given up: money owed to a player), by
 * operator and command. A redelivered message publishes its dead letter again (consumers dedupe
 * by transactionId), so after a crash the count may be one too high, never too low.
 */
export function countDeadLetters(bus: MessageBus, metrics: Metrics, operators: OperatorLookup): MessageBus {
  const deadLetters = metrics.counter<'operator' | 'command'>(MetricNames.walletDeadLetters, {
    description: 'wallet callbacks given up (dead-lettered): money owed to a player',
    unit: '{transaction}',
  });
  // Zero from the start, per operator: an alert on `increase(...) > 0` then fires on the first dead letter too.
  for (const operator of configuredOperatorIds(operators)) deadLetters.add(0, { operator, command: 'win' });
  return {
    async publish(topic, messages) {
      await bus.publish(topic, messages);
      if (topic !== Topics.walletDeadLetters) return;
      const batch: readonly OutgoingMessage[] = Array.isArray(messages) ? messages : [messages as OutgoingMessage];
      for (const message of batch) {
        const letter = message.value as { operatorId?: unknown; request?: { command?: unknown } };
        const command = typeof letter.request?.command === 'string' ? letter.request.command : 'unknown';
        deadLetters.add(1, { operator: operatorLabel(operators, letter.operatorId), command });
      }
    },
    subscribe: (options) => bus.subscribe(options),
    request: (topic, message, options) => bus.request(topic, message, options),
    close: () => bus.close(),
  };
}

/**
 * Counts the `wallet.cancels` messages that sent nothing for want of a readable record or of a cancel
 * owed (see `handleCancelDelivery`), by operator and reason: each is a fault a person must look at.
 */
export function cancelsNotDeliveredCounter(
  metrics: Metrics,
  operators: OperatorLookup,
): (event: { operatorId: string; reason: CancelNotDeliveredReason }) => void {
  const counter = metrics.counter<'operator' | 'reason'>(MetricNames.walletCancelsNotDelivered, {
    description: 'cancel messages that sent nothing: the record cannot be read (the cancel waits) or owes no cancel',
    unit: '{message}',
  });
  // Zero from the start, per operator and reason: an alert on `increase(...) > 0` then fires on the first one too.
  for (const operator of configuredOperatorIds(operators))
    for (const reason of CANCEL_NOT_DELIVERED_REASONS) counter.add(0, { operator, reason });
  return (event) => counter.add(1, { operator: operatorLabel(operators, event.operatorId), reason: event.reason });
}

/**
 * Counts the requests refused because they do not match the event they must come from (a bet or
 * betwin without its RoundStarted, a win without its settlement): a forgery on the bus, or a bug,
 * never a wallet's fault. Zero from the start per configured operator, so `increase(...) > 0` fires
 * on the first one.
 */
export function countRefusals(
  metrics: Metrics,
  operators: OperatorLookup,
): (refusal: { operatorId: string; command: string; reason: string }) => void {
  const refused = metrics.counter<'operator' | 'command' | 'reason'>(MetricNames.walletRequestsRefused, {
    description: 'wallet requests refused: no matching source event (never sent to the operator)',
    unit: '{request}',
  });
  for (const operator of configuredOperatorIds(operators))
    for (const command of ['bet', 'win', 'betwin']) refused.add(0, { operator, command, reason: 'source_mismatch' });
  return (refusal) =>
    refused.add(1, {
      operator: operatorLabel(operators, refusal.operatorId),
      command: refusal.command,
      reason: refusal.reason,
    });
}

/** The circuit states an operator's callbacks pass through (`OperatorBulkheadWallet`). */
const CIRCUIT_STATES: readonly CircuitState[] = ['open', 'half_open', 'closed'];

/**
 * Counts operator circuit changes, by operator and the state entered. Zero from the start per configured
 * operator and state: `increase(...{to="open"}[10m]) > 0` then fires on an operator's first opening too
 * (a series born at 1 has no increase).
 */
export function circuitChangesCounter(
  metrics: Metrics,
  operators: OperatorLookup,
): (change: { operatorId: string; to: CircuitState }) => void {
  const changes = metrics.counter<'operator' | 'to'>(MetricNames.walletCircuitChanges, {
    description: 'Operator circuit state changes',
  });
  for (const operator of configuredOperatorIds(operators))
    for (const to of CIRCUIT_STATES) changes.add(0, { operator, to });
  return (change) => changes.add(1, { operator: operatorLabel(operators, change.operatorId), to: change.to });
}
