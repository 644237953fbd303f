/**
 * A bulkhead per operator around the OperatorWallet port: each operator has its own in-flight
 * limit and its own circuit, so one operator's slow or failing wallet cannot use up the
 * dispatcher's capacity for the others. A call the bulkhead refuses is not sent: it comes back at
 * once as `no_reply` with cause `unavailable` (a bet or betwin then fails and its round is canceled,
 * exactly as after a time-out; a win or cancel is rescheduled, never dropped).
 *
 * Circuit: closed → open after `failureThreshold` consecutive failures (no reply: time-out,
 * network, HTTP error, malformed reply; an operator's own status code such as
 * ERR_NOT_ENOUGH_MONEY is an answer, not a failure); open → refuses every call for `openMs`;
 * half-open → lets one probe call through: OK closes the circuit, a failure opens it again.
 */
import type { CallbackRequest, OperatorConfig } from '@reelstream/contracts';
import type { OperatorCallResult } from '@reelstream/wallet-domain';
import type { OperatorWallet } from './ports.js';

export interface BulkheadLimits {
  /** Calls to one operator in flight at once; one more is refused (not queued). */
  maxInFlight: number;
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets a probe through. */
  openMs: number;
}

export const defaultBulkheadLimits: BulkheadLimits = { maxInFlight: 8, failureThreshold: 5, openMs: 5_000 };

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitChange {
  operatorId: string;
  from: CircuitState;
  to: CircuitState;
  consecutiveFailures: number;
}

export interface OperatorBulkheadOptions {
  /** Limits of one operator: its own settings, or the dispatcher's defaults. */
  limitsOf(operatorId: string): BulkheadLimits;
  /** Monotonic milliseconds. */
  now(): number;
  onCircuitChange?(change: CircuitChange): void;
}

interface Compartment {
  inFlight: number;
  state: CircuitState;
  consecutiveFailures: number;
  openedAt: number;
  probing: boolean;
}

export class OperatorBulkheadWallet implements OperatorWallet {
  private readonly compartments = new Map<string, Compartment>();

  constructor(
    private readonly inner: OperatorWallet,
    private readonly options: OperatorBulkheadOptions,
  ) {}

  /** The circuit of one operator, as the next call would find it (for health and tests). */
  circuitOf(operatorId: string): { state: CircuitState; inFlight: number; consecutiveFailures: number } {
    const compartment = this.compartment(operatorId);
    this.advance(operatorId, compartment);
    return { state: compartment.state, inFlight: compartment.inFlight, consecutiveFailures: compartment.consecutiveFailures };
  }

  async call(operator: OperatorConfig, body: CallbackRequest, timeoutMs: number): Promise<OperatorCallResult> {
    const limits = this.options.limitsOf(operator.id);
    const compartment = this.compartment(operator.id);
    this.advance(operator.id, compartment);
    if (compartment.state === 'open') {
      const retryAfterMs = Math.max(1, compartment.openedAt + limits.openMs - this.options.now());
      return { kind: 'no_reply', cause: 'unavailable', reason: `not sent: operator ${operator.id}'s circuit is open after ${compartment.consecutiveFailures} consecutive failures`, retryAfterMs };
    }
    if (compartment.state === 'half_open' && compartment.probing) {
      return { kind: 'no_reply', cause: 'unavailable', reason: `not sent: operator ${operator.id}'s circuit is half-open and its probe call is in flight`, retryAfterMs: limits.openMs };
    }
    if (compartment.inFlight >= limits.maxInFlight) {
      return { kind: 'no_reply', cause: 'unavailable', reason: `not sent: operator ${operator.id} already has ${compartment.inFlight} calls in flight (its limit)`, retryAfterMs: Math.min(1_000, timeoutMs) };
    }
    const probe = compartment.state === 'half_open';
    if (probe) compartment.probing = true;
    compartment.inFlight += 1;
    let result: OperatorCallResult;
    try {
      result = await this.inner.call(operator, body, timeoutMs);
    } catch (error) {
      this.settle(operator.id, compartment, false, limits);
      throw error;
    } finally {
      compartment.inFlight -= 1;
      if (probe) compartment.probing = false;
    }
    this.settle(operator.id, compartment, result.kind === 'reply', limits);
    return result;
  }

  private compartment(operatorId: string): Compartment {
    let compartment = this.compartments.get(operatorId);
    if (!compartment) {
      compartment = { inFlight: 0, state: 'closed', consecutiveFailures: 0, openedAt: 0, probing: false };
      this.compartments.set(operatorId, compartment);
    }
    return compartment;
  }

  /** An open circuit whose time is up lets a probe through. */
  private advance(operatorId: string, compartment: Compartment): void {
    if (compartment.state !== 'open') return;
    if (this.options.now() - compartment.openedAt >= this.options.limitsOf(operatorId).openMs) this.move(operatorId, compartment, 'half_open');
  }

  private settle(operatorId: string, compartment: Compartment, answered: boolean, limits: BulkheadLimits): void {
    if (answered) {
      compartment.consecutiveFailures = 0;
      if (compartment.state !== 'closed') this.move(operatorId, compartment, 'closed');
      return;
    }
    compartment.consecutiveFailures += 1;
    const shouldOpen = compartment.state === 'half_open' || (compartment.state === 'closed' && compartment.consecutiveFailures >= limits.failureThreshold);
    if (shouldOpen) {
      compartment.openedAt = this.options.now();
      this.move(operatorId, compartment, 'open');
    }
  }

  private move(operatorId: string, compartment: Compartment, to: CircuitState): void {
    const from = compartment.state;
    if (from === to) return;
    compartment.state = to;
    this.options.onCircuitChange?.({ operatorId, from, to, consecutiveFailures: compartment.consecutiveFailures });
  }
}
