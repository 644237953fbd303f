/**
 * The operator's answer to one wallet transaction as the wallet-dispatcher recorded it in the
 * transaction's `walletTx` stream (WalletSucceeded, or a final WalletFailed, carry the balance the
 * reply carried). The dispatcher calls a player's wallet one request at a time, so the log order of
 * these events is the order in which the wallet answered: their positions tell which balance is the
 * newer one. Read-only: the game-server never appends to these streams.
 */
import { parseStoredEvent, walletTxStream } from '@reelstream/contracts';
import type { EventStore, Position, StreamRevision } from '@reelstream/platform-ports';

type RecordedWalletReply =
  /** The wallet answered with this balance; `position` is where the answer is in the log. */
  | { readonly kind: 'answered'; readonly balanceMinor: number; readonly position: Position }
  /** The dispatcher gave up without a balance (a dead-lettered win): nothing to show until a re-drive answers. */
  | { readonly kind: 'given_up' }
  /** No answer recorded yet. */
  | { readonly kind: 'not_yet' };

/** The answer a read found, and how far into the transaction's stream it read. */
export interface ReplyRead {
  readonly reply: RecordedWalletReply;
  readonly revision: StreamRevision | undefined;
}

export interface WalletReplies {
  /**
   * The answer recorded to the transaction. Given an earlier read of it (`since`), only the events
   * after that read are read, folded on from its answer.
   */
  replyOf(transactionId: number, since?: ReplyRead): Promise<ReplyRead>;
  /** Negative when the answer at `a` came before the one at `b`. */
  comparePositions(a: Position, b: Position): number;
}

const REPLY_TYPES: ReadonlySet<string> = new Set(['WalletSucceeded', 'WalletFailed', 'WinDeadLettered']);

/** The answers recorded in the event store (the stream of a transaction never sent reads as `not_yet`). */
export function walletRepliesIn(store: EventStore): WalletReplies {
  return {
    async replyOf(transactionId, since) {
      let reply: RecordedWalletReply = since?.reply ?? { kind: 'not_yet' };
      const after = since?.revision;
      const events = await store.readStream(
        walletTxStream(transactionId),
        after === undefined ? undefined : { fromRevision: after + 1 },
      );
      for (const recorded of events) {
        if (!REPLY_TYPES.has(recorded.type)) continue;
        const event = parseStoredEvent(recorded);
        // `command` names a cancel's callback; a dead letter with its own `request` is another win's: not this transaction's answer.
        if (event.type === 'WalletSucceeded' && event.data.command === undefined)
          reply = { kind: 'answered', balanceMinor: event.data.balanceMinor, position: recorded.position };
        else if (event.type === 'WalletFailed' && event.data.command === undefined && event.data.final)
          reply =
            event.data.balanceMinor === undefined
              ? { kind: 'given_up' }
              : { kind: 'answered', balanceMinor: event.data.balanceMinor, position: recorded.position };
        else if (event.type === 'WinDeadLettered' && event.data.request === undefined && reply.kind === 'not_yet')
          reply = { kind: 'given_up' };
      }
      return { reply, revision: events.at(-1)?.revision ?? after };
    },
    comparePositions: (a, b) => store.comparePositions(a, b),
  };
}
