/**
 * A bulkhead per operator around the OperatorWallet port: each operator has its own in-flight
 * limit and its own circuit, so one operator's slow or failing wallet cannot use up the
 * dispatcher's capacity for the others. A call beyond the limit waits for a free slot at most
 * `maxQueueWaitMs` (a busy but healthy operator loses nothing). A call the bulkhead refuses is not
 * sent: it comes back as `no_reply` with cause `unavailable` (a bet or betwin then fails and its
 * round is canceled, exactly as after a time-out; a win or cancel is rescheduled, never dropped).
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
  /** Calls to one operator in flight at once. */
  maxInFlight: number;
  /** How long a call beyond `maxInFlight` waits for a free slot before it is refused. */
  maxQueueWaitMs: number;
  /** Consecutive failures that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets a probe through. */
  openMs: number;
}

export const defaultBulkheadLimits: BulkheadLimits = {
  maxInFlight: 64,
  maxQueueWaitMs: 1_000,
  failureThreshold: 5,
  openMs: 5_000,
};

/**
 * An operator's limits on one replica of several that share its calls by partition: the in-flight limit
 * times the replica's share of the partitions (`Consumer.share`), rounded up, at least 1; the circuit's
 * settings as they are (each replica counts the failures it sees). The replicas together keep to about
 * the operator's limit however many there are (docs/adr/0034-limits-divided-by-partition-share.md).
 */
export function limitsForShare(limits: BulkheadLimits, share: number): BulkheadLimits {
  const bounded = Number.isFinite(share) ? Math.min(1, Math.max(0, share)) : 0;
  return { ...limits, maxInFlight: Math.max(1, Math.ceil(limits.maxInFlight * bounded)) };
}

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
  /** Calls waiting for a slot, first come first served. */
  waiting: (() => void)[];
}

/** A call the bulkhead did not send, and when to try again. */
export interface BulkheadRefusal {
  kind: 'no_reply';
  cause: 'unavailable';
  reason: string;
  retryAfterMs: number;
}

/**
 * The compartments themselves, whatever goes through them: the operator's wallet callbacks
 * (`OperatorBulkheadWallet`) or its bonus webhooks (a bulkhead of their own, so a failing webhook
 * endpoint never opens the wallet's circuit).
 */
export class OperatorBulkhead {
  private readonly compartments = new Map<string, Compartment>();

  constructor(private readonly options: OperatorBulkheadOptions) {}

  /** The circuit of one operator, as the next call would find it (for health and tests). */
  circuitOf(operatorId: string): { state: CircuitState; inFlight: number; consecutiveFailures: number } {
    const compartment = this.compartment(operatorId);
    this.advance(operatorId, compartment);
    return {
      state: compartment.state,
      inFlight: compartment.inFlight,
      consecutiveFailures: compartment.consecutiveFailures,
    };
  }

  refusingForMs(operatorId: string): number | undefined {
    return this.refusal(operatorId, this.compartment(operatorId), this.options.limitsOf(operatorId))?.retryAfterMs;
  }

  /** Runs `send` in the operator's compartment, or refuses it; `answered` tells a success (closes the circuit) from a failure. */
  async run<T>(
    operatorId: string,
    send: (waitedMs: number) => Promise<T>,
    answered: (result: T) => boolean,
    /** The call may not start later than this from now (a bet's deadline): it waits for a slot no longer. */
    sendWithinMs?: number,
  ): Promise<T | BulkheadRefusal> {
    const limits = this.options.limitsOf(operatorId);
    const compartment = this.compartment(operatorId);
    const refused = this.refusal(operatorId, compartment, limits);
    if (refused) return refused;
    let waitedMs = 0;
    if (compartment.inFlight >= limits.maxInFlight) {
      const maxWaitMs =
        sendWithinMs === undefined ? limits.maxQueueWaitMs : Math.max(0, Math.min(limits.maxQueueWaitMs, sendWithinMs));
      const queuedAt = this.options.now();
      const waited = await this.waitForSlot(compartment, maxWaitMs);
      if (!waited) {
        return {
          kind: 'no_reply',
          cause: 'unavailable',
          reason: `not sent: operator ${operatorId} had ${limits.maxInFlight} calls in flight (its limit) for ${Math.round(maxWaitMs)} ms`,
          retryAfterMs: 1_000,
        };
      }
      waitedMs = this.options.now() - queuedAt;
      // The slot was handed over; the circuit may have opened meanwhile.
      const refusedNow = this.refusal(operatorId, compartment, limits);
      if (refusedNow) {
        this.release(compartment);
        return refusedNow;
      }
    } else {
      compartment.inFlight += 1;
    }
    const probe = compartment.state === 'half_open';
    if (probe) compartment.probing = true;
    let result: T;
    try {
      result = await send(waitedMs);
    } catch (error) {
      this.settle(operatorId, compartment, false, limits);
      throw error;
    } finally {
      this.release(compartment);
      if (probe) compartment.probing = false;
    }
    this.settle(operatorId, compartment, answered(result), limits);
    return result;
  }

  /** Why a call may not go out now (circuit open, or half-open with its probe out), or undefined. */
  private refusal(operatorId: string, compartment: Compartment, limits: BulkheadLimits): BulkheadRefusal | undefined {
    this.advance(operatorId, compartment);
    if (compartment.state === 'open') {
      const retryAfterMs = Math.max(1, compartment.openedAt + limits.openMs - this.options.now());
      return {
        kind: 'no_reply',
        cause: 'unavailable',
        reason: `not sent: operator ${operatorId}'s circuit is open after ${compartment.consecutiveFailures} consecutive failures`,
        retryAfterMs,
      };
    }
    if (compartment.state === 'half_open' && compartment.probing) {
      return {
        kind: 'no_reply',
        cause: 'unavailable',
        reason: `not sent: operator ${operatorId}'s circuit is half-open and its probe call is in flight`,
        retryAfterMs: limits.openMs,
      };
    }
    return undefined;
  }

  /** Resolves true holding a slot handed over by a finishing call, or false after `maxWaitMs`. */
  private waitForSlot(compartment: Compartment, maxWaitMs: number): Promise<boolean> {
    return new Promise((resolve) => {
      const handOver = () => {
        clearTimeout(timer);
        resolve(true);
      };
      const timer = setTimeout(() => {
        const index = compartment.waiting.indexOf(handOver);
        if (index >= 0) compartment.waiting.splice(index, 1);
        resolve(false);
      }, maxWaitMs);
      compartment.waiting.push(handOver);
    });
  }

  /** A finished call's slot goes to the first waiting call, or back to the pool. */
  private release(compartment: Compartment): void {
    const next = compartment.waiting.shift();
    if (next) next();
    else compartment.inFlight -= 1;
  }

  private compartment(operatorId: string): Compartment {
    let compartment = this.compartments.get(operatorId);
    if (!compartment) {
      compartment = { inFlight: 0, state: 'closed', consecutiveFailures: 0, openedAt: 0, probing: false, waiting: [] };
      this.compartments.set(operatorId, compartment);
    }
    return compartment;
  }

  /** An open circuit whose time is up lets a probe through. */
  private advance(operatorId: string, compartment: Compartment): void {
    if (compartment.state !== 'open') return;
    if (this.options.now() - compartment.openedAt >= this.options.limitsOf(operatorId).openMs)
      this.move(operatorId, compartment, 'half_open');
  }

  private settle(operatorId: string, compartment: Compartment, answered: boolean, limits: BulkheadLimits): void {
    if (answered) {
      compartment.consecutiveFailures = 0;
      if (compartment.state !== 'closed') this.move(operatorId, compartment, 'closed');
      return;
    }
    compartment.consecutiveFailures += 1;
    const shouldOpen =
      compartment.state === 'half_open' ||
      (compartment.state === 'closed' && compartment.consecutiveFailures >= limits.failureThreshold);
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

export class OperatorBulkheadWallet implements OperatorWallet {
  private readonly bulkhead: OperatorBulkhead;

  constructor(
    private readonly inner: OperatorWallet,
    options: OperatorBulkheadOptions,
  ) {
    this.bulkhead = new OperatorBulkhead(options);
  }

  /** The circuit of one operator, as the next call would find it (for health and tests). */
  circuitOf(operatorId: string): { state: CircuitState; inFlight: number; consecutiveFailures: number } {
    return this.bulkhead.circuitOf(operatorId);
  }

  refusingForMs(operatorId: string): number | undefined {
    return this.bulkhead.refusingForMs(operatorId);
  }

  /** A bet or betwin (`sendWithinMs`) waits for a slot only while it may still start in its window; what it waited comes off its limit. */
  call(
    operator: OperatorConfig,
    body: CallbackRequest,
    timeoutMs: number,
    sendWithinMs?: number,
    signal?: AbortSignal,
  ): Promise<OperatorCallResult> {
    return this.bulkhead.run(
      operator.id,
      (waitedMs) => this.inner.call(operator, body, Math.max(1, timeoutMs - waitedMs), undefined, signal),
      (result) => result.kind === 'reply',
      sendWithinMs,
    );
  }
}
