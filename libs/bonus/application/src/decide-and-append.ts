/**
 * A bonus command on the player's `playerBonus` stream, through the one command handler
 * (@reelstream/platform-eventsourcing): read → decide with `bonusDecider` → append with the expected
 * revision, decided again on the new state after a conflict.
 */
import { bonusDecider, type BonusDomainCommand, type PlayerBonusAccount } from '@reelstream/bonus-domain';
import { isRefusal, type CommandMetadata, type PlayerBonusEvent, type Refusal } from '@reelstream/contracts';
import { handleCommand } from '@reelstream/platform-eventsourcing';
import type { EventStore } from '@reelstream/platform-ports';
import { toPlayerBonusEvent, type LoadedAccount } from './player-account.js';

/** Who asks for a command: its id seeds the ids of the events it appends; the others go into their metadata. */
export interface CommandOrigin {
  commandId: string;
  correlationId: string;
  /** What caused it, when not the command itself (a campaign's registrations: its CampaignStarted event). */
  causationId?: string;
  operatorId: string;
}

/** Who asked: the bus command's metadata, which seeds the event ids and the events' metadata. */
export function originOf(metadata: CommandMetadata): CommandOrigin {
  const { commandId, correlationId, causationId, operatorId } = metadata;
  return causationId === undefined
    ? { commandId, correlationId, operatorId }
    : { commandId, correlationId, causationId, operatorId };
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
