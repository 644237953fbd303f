/**
 * Commands and queries to the bonus-ledger over the bus (DESIGN §4, services.md "Cross-service
 * protocol"): `bonusRequestMessage` on `bonus.commands`, keyed by `bonusCommandKey`, answered on
 * `bonus.replies`. A reply that does not come in time is a 503 with Retry-After: the command may
 * still be decided later, which is safe because registration is idempotent by platformId (D17)
 * and cancel is idempotent by nature (D14).
 */
import {
  bonusCommandKey,
  bonusRequestMessage,
  Headers,
  parseBonusReply,
  Topics,
  type BonusRequestMessage,
  type BonusRequestType,
  type BonusResult,
} from '@reelstream/contracts';
import { isRequestTimeout, type Clock, type IdGenerator, type MessageBus } from '@reelstream/ports';
import { traceContextFields, type Logger } from '@reelstream/telemetry';
import { ApiError } from '../http/api-error.js';

export interface LedgerClientDeps {
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  timeoutMs: number;
}

type DataOf<Type extends BonusRequestType> = Extract<BonusRequestMessage, { type: Type }>['data'];

export interface LedgerCall<Type extends BonusRequestType> {
  type: Type;
  data: DataOf<Type>;
  /** The gateway request id: the correlationId of the command and of the events it causes. */
  requestId: string;
}

export class LedgerClient {
  constructor(private readonly deps: LedgerClientDeps) {}

  /** Sends one command or query and returns its result; a ledger error or a timeout is thrown as an ApiError. */
  async call<Type extends BonusRequestType>(call: LedgerCall<Type>): Promise<BonusResult<Type>> {
    const message = bonusRequestMessage.parse({
      type: call.type,
      version: 1,
      data: call.data,
      metadata: {
        commandId: String(this.deps.ids.next()),
        correlationId: call.requestId,
        operatorId: call.data.operatorId,
        issuedAt: this.deps.clock.now().toISOString(),
        ...traceContextFields(),
      },
    });
    let replyValue: unknown;
    try {
      const reply = await this.deps.bus.request(
        Topics.bonusCommands,
        { key: bonusCommandKey(message), value: message, headers: { [Headers.messageType]: message.type, [Headers.operatorId]: message.data.operatorId } },
        { replyTopic: Topics.bonusReplies, timeoutMs: this.deps.timeoutMs },
      );
      replyValue = reply.value;
    } catch (error) {
      if (isRequestTimeout(error)) {
        this.deps.logger.warn('bonus-ledger did not answer in time', { requestId: call.requestId, type: call.type, timeoutMs: this.deps.timeoutMs });
        throw new ApiError('SERVICE_UNAVAILABLE', 'The bonus service did not answer in time; retry later (a retried registration with the same platformId is safe).', undefined, {
          'Retry-After': String(Math.max(1, Math.ceil(this.deps.timeoutMs / 1000))),
        });
      }
      throw error;
    }
    // A reply that is not the contract's shape is a fault between our services: 503 INTERNAL, logged.
    const reply = parseBonusReply(call.type, replyValue);
    if (reply.ok) return reply.result;
    throw new ApiError(reply.error.code, reply.error.message, reply.error.details);
  }
}
