/**
 * The command handler: read the player's stream → decide → append with the expected revision.
 * A concurrent writer makes the append fail with WrongExpectedRevision; the stream is read again
 * and the command decided again on the new state (that is how 50 concurrent registrations for
 * one player end with exactly one accepted).
 */
import {
  bonusDecider,
  evolveAll,
  isDomainError,
  type BonusDomainCommand,
  type DomainError,
  type PlayerBonusAccount,
} from '@reelstream/bonus-domain';
import { eventToAppend, type PlayerBonusEvent } from '@reelstream/contracts';
import { isWrongExpectedRevision, type EventStore } from '@reelstream/ports';
import { deterministicEventId } from './event-ids.js';
import { loadPlayerAccount, type LoadedAccount } from './player-account.js';

export interface CommandOrigin {
  commandId: string;
  correlationId: string;
  operatorId: string;
}

export interface Decided {
  /** The account after the decision (with the appended events applied). */
  account: PlayerBonusAccount;
  /** What was appended; empty when the command was already done. */
  events: PlayerBonusEvent[];
}

export class ConcurrencyExhaustedError extends Error {
  override readonly name = 'ConcurrencyExhaustedError';
  constructor(
    readonly streamId: string,
    readonly attempts: number,
  ) {
    super(`stream ${streamId} kept changing: gave up after ${attempts} attempts`);
  }
}

export const DEFAULT_MAX_ATTEMPTS = 100;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function decideAndAppend(
  store: EventStore,
  streamId: string,
  command: BonusDomainCommand,
  origin: CommandOrigin,
  options: { maxAttempts?: number; loaded?: LoadedAccount } = {},
): Promise<Decided | DomainError> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  let loaded = options.loaded;
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const { account, revision } = loaded ?? (await loadPlayerAccount(store, streamId));
    loaded = undefined;
    const decision = bonusDecider.decide(command, account);
    if (isDomainError(decision)) return decision;
    if (decision.length === 0) return { account, events: [] };

    const expected = revision ?? 'no_stream';
    const context = {
      correlationId: origin.correlationId,
      causationId: origin.commandId,
      operatorId: origin.operatorId,
      occurredAt: command.metadata.now,
    };
    const toAppend = decision.map((event, index) => ({
      eventId: deterministicEventId(origin.commandId, streamId, expected, index, event),
      ...eventToAppend(event, context),
    }));
    try {
      await store.append(streamId, toAppend, { expectedRevision: expected });
      return { account: evolveAll(decision, account), events: decision };
    } catch (error) {
      if (!isWrongExpectedRevision(error)) throw error;
      // Many writers on one stream: past the first retries, spread them out a little.
      if (attempt > 3) await pause(Math.random() * Math.min(20, attempt));
    }
  }
  throw new ConcurrencyExhaustedError(streamId, maxAttempts);
}
