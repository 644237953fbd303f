/**
 * The bus edge of the bonus use cases: one `bonus.commands` message (CancelBonusCall, GetBonusCall,
 * ListBonusCalls) → its `bonus.replies` value.
 * Parsed with the contracts schema (an invalid message is answered VALIDATION_FAILED, never
 * retried), its data and metadata handed to the command or query use case, whose result or refusal
 * becomes the reply. Exceptions (a store failure) propagate so the bus retries the message.
 * The bonus use cases know nothing of the bus: this file and the bonus client are where its
 * envelopes are made and read.
 */
import type { BonusCommands, BonusQueries, CommandOrigin } from '@reelstream/bonus-application';
import {
  bonusRequestMessage,
  errorReply,
  isRefusal,
  okReply,
  validationDetails,
  type BonusReply,
  type BonusRequestType,
  type CommandMetadata,
  type Refusal,
} from '@reelstream/contracts';

type AnyBonusReply = BonusReply<BonusRequestType>;

export interface HandledRequest {
  /** The request type, when the message parsed. */
  type: BonusRequestType | undefined;
  reply: AnyBonusReply;
}

export class BonusRequestHandler {
  constructor(
    private readonly commands: BonusCommands,
    private readonly queries: BonusQueries,
  ) {}

  async handle(value: unknown): Promise<HandledRequest> {
    const parsed = bonusRequestMessage.safeParse(value);
    if (!parsed.success)
      return {
        type: undefined,
        reply: errorReply('VALIDATION_FAILED', 'not a valid bonus.commands message', validationDetails(parsed.error)),
      };
    const message = parsed.data;
    const origin = originOf(message.metadata);
    switch (message.type) {
      case 'CancelBonusCall':
        return { type: message.type, reply: replyOf(await this.commands.cancel(message.data, origin)) };
      case 'GetBonusCall':
        return { type: message.type, reply: replyOf(await this.queries.get(message.data)) };
      case 'ListBonusCalls':
        return { type: message.type, reply: replyOf(await this.queries.list(message.data)) };
      default: {
        const unexpected: never = message;
        throw new Error(`no handler for ${(unexpected as { type: string }).type}`);
      }
    }
  }
}

/** A use case's answer as the `bonus.replies` value it is sent as. */
function replyOf<Result>(handled: Result | Refusal): { ok: true; result: Result } | ReturnType<typeof errorReply> {
  if (!isRefusal(handled)) return okReply(handled);
  return errorReply(handled.code, handled.message, handled.details === undefined ? undefined : [...handled.details]);
}

/** Who asked: the bus command's metadata, which seeds the event ids and the events' metadata. */
function originOf(metadata: CommandMetadata): CommandOrigin {
  const { commandId, correlationId, causationId, operatorId } = metadata;
  return causationId === undefined
    ? { commandId, correlationId, operatorId }
    : { commandId, correlationId, causationId, operatorId };
}
