/**
 * What the dispatch use case needs besides the platform ports (EventStore, MessageBus, Clock,
 * IdGenerator): the operator's wallet, the operator directory and a logger.
 */
import type { CallbackRequest, OperatorConfig } from '@reelstream/contracts';
import type { OperatorCallResult } from '@reelstream/wallet-domain';

/**
 * One callback attempt: POST `body` to the operator's callback URL, signed, and wait at most
 * `timeoutMs` for its answer. Exactly one HTTP request, no retry of its own (the policy is the
 * dispatcher's). Never rejects for the operator's faults: a time-out, a refused connection, an
 * HTTP error or a reply that is not `{balance, statusCode}` come back as `no_reply`.
 */
export interface OperatorWallet {
  /**
   * One callback, answered within `timeoutMs` from now. `sendWithinMs` (a bet's or betwin's deadline): the
   * call may not start later than that from now; one that would (it waited for a slot) is not sent.
   * `signal`: the bus handler's (`ConsumerContext.signal`); when it aborts (the handler's deadline
   * passed, or its partition was revoked) the request is aborted and the call ends as a `timeout`
   * no-reply whose outcome at the operator is unknown, as if no answer had come in time.
   */
  call(
    operator: OperatorConfig,
    body: CallbackRequest,
    timeoutMs: number,
    sendWithinMs?: number,
    signal?: AbortSignal,
  ): Promise<OperatorCallResult>;
  /**
   * For how long (ms) calls to this operator would be refused right now (its circuit is open), or
   * undefined when a call may go out. Lets a cancel wait without recording an attempt never sent.
   */
  refusingForMs?(operatorId: string): number | undefined;
}

export interface OperatorLookup {
  get(id: string): OperatorConfig | undefined;
}

/** Structured logging as `@reelstream/platform-telemetry`'s Logger does it (that lib is not a dependency of this layer). */
export interface DispatchLog {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export const silentLog: DispatchLog = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
