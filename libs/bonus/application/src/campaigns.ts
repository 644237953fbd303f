/**
 * Campaigns on their stream (docs/adr/0010-campaigns.md), through the one command handler: the
 * start (appended by the gateway, idempotent by campaignId and request hash) and the read of a
 * campaign's progress. The registrations are the campaign worker's (campaign-worker.ts).
 */
import { campaignDecider, campaignRequestHash, startedAgain, type CampaignState } from '@reelstream/bonus-domain';
import {
  campaignEventToAppend,
  campaignStream,
  isRefusal,
  parseCampaignEvent,
  type CampaignEvent,
  type CampaignProgress,
  type CampaignStarted,
  type Refusal,
  type StartCampaignRequest,
} from '@reelstream/contracts';
import { commandHandler } from '@reelstream/platform-eventsourcing';
import type { EventStore } from '@reelstream/platform-ports';
import { contextOf, type CommandOrigin } from './command-origin.js';

/** Names a campaign's stream: the operator's campaignId. */
export interface CampaignKey {
  readonly operatorId: string;
  readonly campaignId: string;
}

/**
 * `campaign-{operatorId}-{campaignId}`, with its own stored form. Each command is decided on the
 * state `readCampaign` has just read (`loaded`), never on the state cache.
 */
export const campaignStreams = commandHandler({
  decider: campaignDecider,
  streamId: ({ operatorId, campaignId }: CampaignKey) => campaignStream(operatorId, campaignId),
  parse: parseCampaignEvent,
  serialize: (event: CampaignEvent, metadata: Parameters<typeof campaignEventToAppend>[1]) =>
    campaignEventToAppend(event, metadata),
});

export interface StartCampaignInput {
  request: StartCampaignRequest;
  /** The terms as each player's RegisterBonusCall carries them (the gateway's conversion of the request). */
  terms: CampaignStarted['data']['terms'];
  now: string;
  /** The POST's request id, the operator. */
  origin: CommandOrigin;
}

/**
 * Stores the campaign: `{replayed: false}` when this call started it, `{replayed: true}` when the
 * same request had (a resend), CAMPAIGN_ID_CONFLICT when the campaignId was started with another body.
 */
export async function startCampaign(
  store: EventStore,
  input: StartCampaignInput,
): Promise<{ replayed: boolean } | Refusal> {
  const { request, origin } = input;
  const key = { operatorId: origin.operatorId, campaignId: request.campaignId };
  const handled = await campaignStreams.handle(
    store,
    key,
    {
      type: 'StartCampaign',
      data: {
        campaignId: request.campaignId,
        requestHash: campaignRequestHash(request),
        requested: request.terms,
        terms: input.terms,
        players: request.players,
        startedAt: input.now,
      },
    },
    contextOf(origin, input.now),
    // Read without the state cache (see readCampaign); a resend is answered from it.
    { loaded: await readCampaign(store, campaignStreams.streamId(key)) },
  );
  if (isRefusal(handled)) return handled;
  return { replayed: handled.events.length === 0 };
}

/**
 * The answer to a campaign whose campaignId was started already, found by the campaignId and the
 * request's hash alone, before the terms are converted and checked against today's rules (D17):
 * `{replayed: true}` for the same request, CAMPAIGN_ID_CONFLICT for another body; undefined when the
 * campaignId is free (the terms are then checked and `startCampaign` stores it).
 */
export async function campaignResend(
  store: EventStore,
  operatorId: string,
  request: StartCampaignRequest,
): Promise<{ replayed: true } | Refusal | undefined> {
  const { state } = await readCampaign(store, campaignStream(operatorId, request.campaignId));
  const answer = startedAgain(state, request.campaignId, campaignRequestHash(request));
  return answer === undefined || isRefusal(answer) ? answer : { replayed: true };
}

/**
 * The campaign's state and revision, folded from its whole stream on every call, never kept in the
 * command handler's state cache (`loadState`): a campaign's state holds up to 10,000 players, and
 * that cache keeps up to 10,000 streams per process.
 */
export async function readCampaign(
  store: EventStore,
  streamId: string,
): Promise<{ state: CampaignState; revision: number | undefined }> {
  const stored = await store.readStream(streamId);
  const state = stored.reduce(
    (current, recorded) => campaignDecider.evolve(current, parseCampaignEvent(recorded)),
    campaignDecider.initialState,
  );
  return { state, revision: stored.at(-1)?.revision };
}

/** The campaign's state; undefined when the operator has no campaign of this id. */
export async function loadCampaign(
  store: EventStore,
  operatorId: string,
  campaignId: string,
): Promise<CampaignState | undefined> {
  const { state } = await readCampaign(store, campaignStream(operatorId, campaignId));
  return state.started === null ? undefined : state;
}

/** The progress an operator reads, with the refusals from `offset`, `limit` of them. */
export function campaignProgressOf(state: CampaignState, page: { offset: number; limit: number }): CampaignProgress {
  const started = state.started;
  if (started === null) throw new Error('a campaign that was never started has no progress');
  const refusals = state.refusals.slice(page.offset, page.offset + page.limit);
  const next = page.offset + refusals.length;
  return {
    campaignId: started.campaignId,
    state: state.completedAt === null ? 'running' : 'completed',
    total: started.players.length,
    registered: state.registered,
    refused: state.refusals.length,
    pending: started.players.length - state.outcomes.size,
    startedAt: started.startedAt,
    completedAt: state.completedAt,
    refusals: refusals.map(({ playerId, code, message }) => ({ playerId, code, message })),
    nextCursor: next < state.refusals.length ? String(next) : null,
  };
}
