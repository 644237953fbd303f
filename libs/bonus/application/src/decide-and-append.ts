/**
 * A bonus command on the player's `playerBonus` stream, through the one command handler
 * (@reelstream/platform-eventsourcing): read → decide with `bonusDecider` → append with the expected
 * revision, decided again on the new state after a conflict.
 */
import { bonusDecider, type BonusDomainCommand, type PlayerBonusAccount } from '@reelstream/bonus-domain';
import {
  errorReply,
  isRefusal,
  type CommandMetadata,
  type PlayerBonusEvent,
  type Refusal,
} from '@reelstream/contracts';
import { handleCommand } from '@reelstream/platform-eventsourcing';
import type { EventStore } from '@reelstream/platform-ports';
import { toPlayerBonusEvent, type LoadedAccount } from './player-account.js';

export interface CommandOrigin {
  commandId: string;
  correlationId: string;
  operatorId: string;
}

/** Who asked: the bus command's metadata, which seeds the event ids and the events' metadata. */
export function originOf(metadata: CommandMetadata): CommandOrigin {
  return { commandId: metadata.commandId, correlationId: metadata.correlationId, operatorId: metadata.operatorId };
}

/** A refusal as the `bonus.replies` error it is answered with. */
export function refused(error: Refusal): ReturnType<typeof errorReply> {
  return errorReply(error.code, error.message, error.details === undefined ? undefined : [...error.details]);
}

export interface Decided {
  /** The account after the decision (with the appended events applied). */
  account: PlayerBonusAccount;
  /** What was appended; empty when the command was already done. */
  events: readonly PlayerBonusEvent[];
}

export async function decideAndAppend(
  store: EventStore,
  streamId: string,
  command: BonusDomainCommand,
  origin: CommandOrigin,
  options: { maxAttempts?: number; loaded?: LoadedAccount } = {},
): Promise<Decided | Refusal> {
  const { loaded, maxAttempts } = options;
  const handled = await handleCommand(store, streamId, bonusDecider, command, {
    // The gateway's command id: a resent or redelivered command keeps it, so its events keep their ids.
    context: { ...origin, occurredAt: command.metadata.now },
    parse: toPlayerBonusEvent,
    ...(loaded === undefined ? {} : { loaded: { state: loaded.account, revision: loaded.revision } }),
    ...(maxAttempts === undefined ? {} : { retry: { maxAttempts } }),
  });
  if (isRefusal(handled)) return handled;
  return { account: handled.state, events: handled.events };
}
