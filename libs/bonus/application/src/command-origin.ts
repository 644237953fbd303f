/** Who asks for a bonus command, and the context its events are appended with. */
import type { CommandContext } from '@reelstream/platform-eventsourcing';

/** Who asks for a command: its id seeds the ids of the events it appends; the others go into their metadata. */
export interface CommandOrigin {
  commandId: string;
  correlationId: string;
  /** What caused it, when not the command itself (a campaign's registrations: its CampaignStarted event). */
  causationId?: string;
  operatorId: string;
}

/** The command handler's context: who asked, and when the events happen (the decision's time). */
export function contextOf(origin: CommandOrigin, occurredAt: string): CommandContext {
  return { ...origin, occurredAt };
}
