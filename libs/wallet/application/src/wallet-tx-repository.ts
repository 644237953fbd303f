/**
 * The `walletTx-{transactionId}` stream as the dispatcher uses it, through the one command handler
 * (@reelstream/platform-eventsourcing): load → state and revision; decide on that record → append at its
 * revision. A delivery calls the operator between two appends on what the record said, so a
 * concurrent writer is not decided over here: the conflict goes up to the use case, which reloads
 * and goes on from the record (`retryDispatch`).
 */
import { ReelstreamError, streamEventParser, walletTxStream, type EventContext } from '@reelstream/contracts';
import { commandHandler, inSequence, retryOnConflict, type RetryPolicy } from '@reelstream/platform-eventsourcing';
import type { EventStore } from '@reelstream/platform-ports';
import {
  walletTxDecider,
  type WalletRefusal,
  type WalletTxCommand,
  type WalletTxState,
} from '@reelstream/wallet-domain';

export interface WalletTxRecord {
  readonly transactionId: number;
  readonly state: WalletTxState;
  readonly revision: number | 'no_stream';
}

/** The decider refused what the record implies: the same message would be refused again (not retriable). */
export class WalletDecisionRefused extends ReelstreamError {
  override name = 'WalletDecisionRefused';
  constructor(
    readonly transactionId: number,
    readonly decision: WalletRefusal,
  ) {
    super(decision.code, `walletTx-${transactionId}: ${decision.code}: ${decision.message}`, {
      details: decision.details,
      retriable: decision.retriable,
    });
  }
}

/** Another writer moved the stream while a use case worked (a rebalance overlap): reload and go on, a few times. */
const DISPATCH_CONFLICT_POLICY: Partial<RetryPolicy> = { maxAttempts: 5, immediateAttempts: 5 };

/** Runs a dispatch use case again from a fresh load of the record while its appends meet a conflict. */
export function retryDispatch<T>(transactionId: number, useCase: (attempt: number) => Promise<T>): Promise<T> {
  return retryOnConflict(walletTxStream(transactionId), useCase, DISPATCH_CONFLICT_POLICY);
}

/** `walletTx-{transactionId}`, decided a batch of commands at a time (one write, one fsync). */
const walletTxRecords = commandHandler({
  decider: inSequence(walletTxDecider),
  streamId: (transactionId: number) => walletTxStream(transactionId),
  parse: streamEventParser('walletTx'),
});

export class WalletTxRepository {
  constructor(private readonly store: EventStore) {}

  async load(transactionId: number): Promise<WalletTxRecord> {
    const { state, revision } = await walletTxRecords.load(this.store, transactionId);
    return { transactionId, state, revision: revision ?? 'no_stream' };
  }

  /** Decides `command` on the record and appends the events; the record as it is afterwards. */
  execute(record: WalletTxRecord, command: WalletTxCommand, context: EventContext): Promise<WalletTxRecord> {
    return this.executeAll(record, [command], context);
  }

  /** Decides the commands one after the other and appends all their events at once (one write, one fsync). */
  async executeAll(
    record: WalletTxRecord,
    commands: readonly WalletTxCommand[],
    context: EventContext,
  ): Promise<WalletTxRecord> {
    const handled = await walletTxRecords.handle(
      this.store,
      record.transactionId,
      commands,
      {
        ...context,
        // The bus message's position: a redelivery of the message keeps it, so its events keep their ids.
        commandId: context.causationId,
        // The events happened when they were decided, not when the message being handled arrived.
        occurredAt: commands.at(-1)?.metadata.now ?? context.occurredAt,
      },
      {
        loaded: { state: record.state, revision: record.revision === 'no_stream' ? undefined : record.revision },
        // One attempt: a conflict is the use case's to handle (see above), not decided again here.
        retry: { maxAttempts: 1 },
      },
    );
    if (!('events' in handled)) throw new WalletDecisionRefused(record.transactionId, handled);
    return { transactionId: record.transactionId, state: handled.state, revision: handled.revision ?? 'no_stream' };
  }
}
