/**
 * The callers' side of the bonus-ledger protocol over the bus (the gateway's cancel and status
 * queries): `bonusRequestMessage` on `bonus.commands` keyed by `bonusCommandKey`, answered on
 * `bonus.replies` and parsed with the contract of what was asked. A refusal comes back as a value;
 * a missing answer is a `LedgerTimeoutError` (a cancel may still be decided later, which is safe:
 * it is idempotent).
 */
import {
  bonusCommandKey,
  bonusRequestMessage,
  Headers,
  parseBonusReply,
  ReelstreamError,
  Topics,
  type BonusReply,
  type BonusRequestMessage,
  type BonusRequestType,
} from '@reelstream/contracts';
import { isRequestTimeout, type Clock, type IdGenerator, type MessageBus } from '@reelstream/platform-ports';
import { traceContextFields } from '@reelstream/platform-telemetry';

/** How long a caller waits for the ledger's reply unless configured otherwise (`LEDGER_TIMEOUT_MS`). */
export const DEFAULT_LEDGER_TIMEOUT_MS = 5_000;

export type BonusRequestData<Type extends BonusRequestType> = Extract<BonusRequestMessage, { type: Type }>['data'];

export class LedgerTimeoutError extends ReelstreamError {
  override readonly name = 'LedgerTimeoutError';
  constructor(
    readonly type: BonusRequestType,
    readonly timeoutMs: number,
  ) {
    super('SERVICE_UNAVAILABLE', `the bonus-ledger did not answer ${type} within ${timeoutMs} ms`, { retriable: true });
  }
}

export interface BonusLedgerClientDeps {
  bus: MessageBus;
  clock: Clock;
  /** Draws each command's commandId. */
  ids: IdGenerator;
  /** How long to wait for the reply. */
  timeoutMs: number;
}

export class BonusLedgerClient {
  constructor(private readonly deps: BonusLedgerClientDeps) {}

  /** Sends one command or query; `correlationId` becomes the correlationId of the command and of the events it causes. */
  async call<Type extends BonusRequestType>(
    type: Type,
    data: BonusRequestData<Type>,
    correlationId: string,
  ): Promise<BonusReply<Type>> {
    const message = bonusRequestMessage.parse({
      type,
      version: 1,
      data,
      metadata: {
        commandId: String(this.deps.ids.next()),
        correlationId,
        operatorId: data.operatorId,
        issuedAt: this.deps.clock.now().toISOString(),
        ...traceContextFields(),
      },
    });
    let value: unknown;
    try {
      const reply = await this.deps.bus.request(
        Topics.bonusCommands,
        {
          key: bonusCommandKey(message),
          value: message,
          headers: { [Headers.messageType]: type, [Headers.operatorId]: data.operatorId },
        },
        { replyTopic: Topics.bonusReplies, timeoutMs: this.deps.timeoutMs },
      );
      value = reply.value;
    } catch (error) {
      if (isRequestTimeout(error)) throw new LedgerTimeoutError(type, this.deps.timeoutMs);
      throw error;
    }
    // A reply that is not the contract's shape is a fault between our services: it throws.
    return parseBonusReply(type, value);
  }
}
