/**
 * The gateway's calls to the bonus-ledger (the protocol itself is `@reelstream/bonus-client`):
 * a refusal becomes the RefusedError of its code, and a reply that does not come in time a 503 with
 * Retry-After. The command may still be decided later, which is safe because registration is
 * idempotent by platformId (D17) and cancel is idempotent by nature (D14).
 */
import { RefusedError } from '@reelstream/contracts';
import { BonusLedgerClient, LedgerTimeoutError, type BonusRequestData } from '@reelstream/bonus-client';
import type { BonusRequestType, BonusResult } from '@reelstream/contracts';
import type { Clock, IdGenerator, MessageBus } from '@reelstream/platform-ports';
import type { Logger } from '@reelstream/platform-telemetry';

export interface LedgerClientDeps {
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  timeoutMs: number;
}

export interface LedgerCall<Type extends BonusRequestType> {
  type: Type;
  data: BonusRequestData<Type>;
  /** The gateway request id: the correlationId of the command and of the events it causes. */
  requestId: string;
}

export class LedgerClient {
  private readonly client: BonusLedgerClient;

  constructor(private readonly deps: LedgerClientDeps) {
    this.client = new BonusLedgerClient(deps);
  }

  /** Sends one command or query and returns its result; a ledger refusal or a timeout is thrown as a RefusedError. */
  async call<Type extends BonusRequestType>(call: LedgerCall<Type>): Promise<BonusResult<Type>> {
    let reply;
    try {
      reply = await this.client.call(call.type, call.data, call.requestId);
    } catch (error) {
      if (!(error instanceof LedgerTimeoutError)) throw error;
      this.deps.logger.warn('bonus-ledger did not answer in time', {
        requestId: call.requestId,
        type: call.type,
        timeoutMs: this.deps.timeoutMs,
      });
      // Retry-After: the ledger's time limit in whole seconds, at least one.
      throw new RefusedError(
        'SERVICE_UNAVAILABLE',
        'The bonus service did not answer in time; retry later (a retried registration with the same platformId is safe).',
        { retryAfterSeconds: Math.max(1, Math.ceil(error.timeoutMs / 1_000)) },
      );
    }
    if (reply.ok) return reply.result;
    throw new RefusedError(reply.error.code, reply.error.message, { details: reply.error.details });
  }
}
