/**
 * Bets and betwins go to the wallet-dispatcher on `wallet.requests` (keyed by player, so a
 * round's bet stays ahead of its win) and the game-server waits for the dispatcher's answer on
 * `wallet.replies`. The dispatcher owns the operator call, its 3 s limit, and the cancel of a
 * failed bet; this side only learns the outcome. No answer is `WalletUnansweredError`: none came in
 * time, or the bus could not take the bet for now (a Kafka partition between leaders, a broker
 * down). Either way the bet may or may not be on its way, the outcome is unknown, and the round is
 * resolved later by asking again with the same transactionId, which the dispatcher answers from its
 * record.
 */
import { Headers, playerKey, ReelstreamError, Topics, walletReply, type WalletReply } from '@reelstream/contracts';
import type { StakeRequest, WalletPort } from '@reelstream/game-application';
import { isRequestTimeout, type MessageBus } from '@reelstream/platform-ports';

/** Retriable: the wallet-dispatcher may answer the same transaction later. */
export class WalletUnansweredError extends ReelstreamError {
  override readonly name = 'WalletUnansweredError';
  constructor(
    readonly transactionId: number,
    why: string,
    cause?: Error,
  ) {
    super('WALLET_UNAVAILABLE', `transaction ${transactionId} not answered: ${why}`, { retriable: true, cause });
  }
}

export class WalletClient implements WalletPort {
  constructor(
    private readonly bus: MessageBus,
    private readonly timeoutMs: number,
  ) {}

  isUnanswered(error: unknown): error is WalletUnansweredError {
    return error instanceof WalletUnansweredError;
  }

  async stake(request: StakeRequest, timeoutMs = this.timeoutMs): Promise<WalletReply> {
    let value: unknown;
    try {
      const reply = await this.bus.request(
        Topics.walletRequests,
        {
          key: playerKey(request),
          value: request,
          headers: { [Headers.messageType]: request.command, [Headers.operatorId]: request.operatorId },
        },
        // One correlation id per transaction: a re-sent request is the same conversation, and a
        // late answer to the first sending settles the second just as well.
        { replyTopic: Topics.walletReplies, timeoutMs, correlationId: `wallet-tx-${request.transactionId}` },
      );
      value = reply.value;
    } catch (error) {
      if (isRequestTimeout(error))
        throw new WalletUnansweredError(request.transactionId, `no answer within ${timeoutMs} ms`);
      // The bus could not take it for now: its adapter's retriable error says so, whatever the bus.
      if (error instanceof ReelstreamError && error.retriable)
        throw new WalletUnansweredError(request.transactionId, `the bus did not take it: ${error.message}`, error);
      throw error;
    }
    const answer = walletReply.parse(value);
    if (answer.transactionId !== request.transactionId) {
      throw new Error(
        `the wallet-dispatcher answered transaction ${answer.transactionId} to a request for ${request.transactionId}`,
      );
    }
    return answer;
  }
}
