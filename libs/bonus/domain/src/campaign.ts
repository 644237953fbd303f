/**
 * The `campaign-{operatorId}-{campaignId}` stream as a decider (docs/adr/0010-campaigns.md): started
 * once with its request (the same campaignId with another request body is refused), then the
 * outcome of each player recorded once, in batches, and completed when no player is left. A
 * batch that repeats players already recorded records only the others, so a worker that resumes
 * after a crash can report a batch again without counting anyone twice.
 */
import {
  canonicalJson,
  refusal,
  sha256HexOf,
  type StartCampaignRequest,
  type CampaignEvent,
  type CampaignStarted,
  type Refusal,
  type RefusedCampaignPlayer,
  type RegisteredCampaignPlayer,
} from '@reelstream/contracts';

type Outcome = { issueId: number } | { code: string };

export interface CampaignState {
  readonly started: CampaignStarted['data'] | null;
  /** Each recorded player's outcome. */
  readonly outcomes: ReadonlyMap<string, Outcome>;
  readonly registered: number;
  /** The refused players in the order they were recorded. */
  readonly refusals: readonly RefusedCampaignPlayer[];
  readonly completedAt: string | null;
}

interface StartCampaign {
  readonly type: 'StartCampaign';
  readonly data: CampaignStarted['data'];
}

interface RecordCampaignProgress {
  readonly type: 'RecordCampaignProgress';
  readonly data: {
    readonly registered: readonly RegisteredCampaignPlayer[];
    readonly refused: readonly RefusedCampaignPlayer[];
    /** When the batch was decided: the completion's time when it is the last. */
    readonly now: string;
  };
}

export type CampaignCommand = StartCampaign | RecordCampaignProgress;

const initialCampaignState: CampaignState = {
  started: null,
  outcomes: new Map(),
  registered: 0,
  refusals: [],
  completedAt: null,
};

/**
 * The fingerprint of a campaign request: SHA-256 of the request as normalised by its schema, with
 * the game ids sorted (a set); the players keep their order (the order they are registered in).
 * Stored in CampaignStarted; must never change.
 */
export function campaignRequestHash(request: StartCampaignRequest): string {
  const terms = { ...request.terms, gameIds: [...request.terms.gameIds].sort((a, b) => a - b) };
  return sha256HexOf(`start-campaign/v1\n${canonicalJson({ ...request, terms })}`);
}

/** The players not yet registered nor refused, in the campaign's order. */
export function pendingPlayers(state: CampaignState): string[] {
  return (state.started?.players ?? []).filter((player) => !state.outcomes.has(player));
}

/**
 * A start of a campaign that was started already, whatever the rules say today: the same request
 * (its hash) is a resend, done (`[]`); another body is CAMPAIGN_ID_CONFLICT. Undefined when the
 * campaign was never started.
 */
export function startedAgain(state: CampaignState, campaignId: string, requestHash: string): [] | Refusal | undefined {
  if (state.started === null) return undefined;
  if (state.started.requestHash === requestHash) return [];
  return refusal('CAMPAIGN_ID_CONFLICT', `campaignId ${campaignId} was started with a different request body`);
}

function decideStart(command: StartCampaign, state: CampaignState): CampaignEvent[] | Refusal {
  return (
    startedAgain(state, command.data.campaignId, command.data.requestHash) ?? [
      { type: 'CampaignStarted', data: command.data },
    ]
  );
}

function decideProgress(command: RecordCampaignProgress, state: CampaignState): CampaignEvent[] | Refusal {
  const { started } = state;
  if (started === null) return refusal('CAMPAIGN_NOT_FOUND', 'the campaign was never started');
  const members = new Set(started.players);
  const seen = new Set<string>();
  const fresh = <Player extends { playerId: string }>(players: readonly Player[]): Player[] =>
    players.filter((player) => {
      if (!members.has(player.playerId))
        throw new Error(`player ${player.playerId} is not in campaign ${started.campaignId}`);
      if (state.outcomes.has(player.playerId) || seen.has(player.playerId)) return false;
      seen.add(player.playerId);
      return true;
    });
  const registered = fresh(command.data.registered);
  const refused = fresh(command.data.refused);
  const events: CampaignEvent[] = [];
  if (registered.length > 0) events.push({ type: 'CampaignPlayersRegistered', data: { players: registered } });
  if (refused.length > 0) events.push({ type: 'CampaignPlayersRefused', data: { players: refused } });
  const left = started.players.length - state.outcomes.size - seen.size;
  if (left === 0 && state.completedAt === null)
    events.push({
      type: 'CampaignCompleted',
      data: {
        registered: state.registered + registered.length,
        refused: state.refusals.length + refused.length,
        completedAt: command.data.now,
      },
    });
  return events;
}

function decide(command: CampaignCommand, state: CampaignState): CampaignEvent[] | Refusal {
  switch (command.type) {
    case 'StartCampaign':
      return decideStart(command, state);
    case 'RecordCampaignProgress':
      return decideProgress(command, state);
    default: {
      const unexpected: never = command;
      throw new Error(`no rule for command ${(unexpected as { type: string }).type}`);
    }
  }
}

/** A new state: the cached state of the command handler is never changed in place. */
function evolve(state: CampaignState, event: CampaignEvent): CampaignState {
  switch (event.type) {
    case 'CampaignStarted':
      return state.started === null ? { ...state, started: event.data } : state;
    case 'CampaignPlayersRegistered': {
      const outcomes = new Map(state.outcomes);
      for (const { playerId, issueId } of event.data.players) outcomes.set(playerId, { issueId });
      return { ...state, outcomes, registered: state.registered + event.data.players.length };
    }
    case 'CampaignPlayersRefused': {
      const outcomes = new Map(state.outcomes);
      for (const { playerId, code } of event.data.players) outcomes.set(playerId, { code });
      return { ...state, outcomes, refusals: [...state.refusals, ...event.data.players] };
    }
    case 'CampaignCompleted':
      return { ...state, completedAt: event.data.completedAt };
    default: {
      const unexpected: never = event;
      throw new Error(`no evolution for ${(unexpected as { type: string }).type}`);
    }
  }
}

export const campaignDecider = { initialState: initialCampaignState, decide, evolve } as const;
