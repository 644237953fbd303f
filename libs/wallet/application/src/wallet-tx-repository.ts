/**
 * The `walletTx-{transactionId}` stream as the dispatcher uses it: load → state and revision;
 * decide → append at that revision with deterministic event ids. A concurrent writer makes the
 * append fail with WrongExpectedRevisionError; the caller reloads and goes on from the record.
 */
import {
  eventToAppend,
  parseStoredEvent,
  walletTxStream,
  type EventContext,
  type WalletTxEvent,
} from '@reelstream/contracts';
import type { EventStore } from '@reelstream/ports';
import { deterministicEventId } from './event-ids.js';
import {
  decide,
  evolve,
  initialWalletTxState,
  isWalletDecisionError,
  type WalletDecisionError,
  type WalletTxCommand,
  type WalletTxState,
} from '@reelstream/wallet-domain';

export interface WalletTxRecord {
  readonly transactionId: number;
  readonly state: WalletTxState;
  readonly revision: number | 'no_stream';
}

export class WalletDecisionRefused extends Error {
  override readonly name = 'WalletDecisionRefused';
  constructor(
    readonly transactionId: number,
    readonly decision: WalletDecisionError,
  ) {
    super(`walletTx-${transactionId}: ${decision.reason}: ${decision.message}`);
  }
}

const WALLET_TX_TYPES = new Set<string>([
  'WalletRequested',
  'WalletAttempted',
  'WalletSucceeded',
  'WalletFailed',
  'CancelRequested',
  'CancelSucceeded',
  'WinDeadLettered',
  'WinRefused',
]);

export class WalletTxRepository {
  constructor(private readonly store: EventStore) {}

  async load(transactionId: number): Promise<WalletTxRecord> {
    const recorded = await this.store.readStream(walletTxStream(transactionId));
    let state = initialWalletTxState;
    for (const event of recorded) {
      const parsed = parseStoredEvent(event);
      if (!WALLET_TX_TYPES.has(parsed.type))
        throw new Error(`walletTx-${transactionId} holds a ${parsed.type} event at revision ${event.revision}`);
      state = evolve(state, parsed as WalletTxEvent);
    }
    const last = recorded.at(-1);
    return { transactionId, state, revision: last ? last.revision : 'no_stream' };
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
    const events: WalletTxEvent[] = [];
    let state = record.state;
    for (const command of commands) {
      const decided = decide(command, state);
      if (isWalletDecisionError(decided)) throw new WalletDecisionRefused(record.transactionId, decided);
      events.push(...decided);
      state = decided.reduce(evolve, state);
    }
    if (events.length === 0) return record;
    const streamId = walletTxStream(record.transactionId);
    // The events happened when they were decided, not when the message being handled arrived.
    const occurred = { ...context, occurredAt: commands.at(-1)?.metadata.now ?? context.occurredAt };
    const toAppend = events.map((event, index) => ({
      ...eventToAppend(event, occurred),
      eventId: deterministicEventId(streamId, record.revision, index, event.type, event.data),
    }));
    const result = await this.store.append(streamId, toAppend, { expectedRevision: record.revision });
    return { transactionId: record.transactionId, state, revision: result.nextExpectedRevision };
  }
}
