/**
 * The gateway's calls to the bonus-ledger (the protocol itself is `@reelstream/bonus-client`):
 * a refusal becomes the ApiError of its code, and a reply that does not come in time a 503 with
 * Retry-After. The command may still be decided later, which is safe because registration is
 * idempotent by platformId (D17) and cancel is idempotent by nature (D14).
 */
import { BonusLedgerClient, LedgerTimeoutError, type BonusRequestData } from '@reelstream/bonus-client';
import type { BonusRequestType, BonusResult } from '@reelstream/contracts';
import { ApiError, ledgerTimeoutAsApiError } from '@reelstream/platform-http';
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

  /** Sends one command or query and returns its result; a ledger error or a timeout is thrown as an ApiError. */
  async call<Type extends BonusRequestType>(call: LedgerCall<Type>): Promise<BonusResult<Type>> {
    let reply;
    try {
      reply = await this.client.call(call.type, call.data, call.requestId);
    } catch (error) {
      if (error instanceof LedgerTimeoutError) {
        this.deps.logger.warn('bonus-ledger did not answer in time', {
          requestId: call.requestId,
          type: call.type,
          timeoutMs: this.deps.timeoutMs,
        });
      }
      throw ledgerTimeoutAsApiError(error, 'retry later (a retried registration with the same platformId is safe).');
    }
    if (reply.ok) return reply.result;
    throw new ApiError(reply.error.code, reply.error.message, reply.error.details);
  }
}
