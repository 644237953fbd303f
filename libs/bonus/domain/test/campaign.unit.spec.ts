/** The campaign decider and its fold (docs/adr/0010-campaigns.md). */
import { describe, expect, it } from '@jest/globals';
import type { CampaignEvent, CampaignStarted, StartCampaignRequest } from '@reelstream/contracts';
import {
  campaignDecider,
  campaignRequestHash,
  pendingPlayers,
  startedAgain,
  type CampaignCommand,
  type CampaignState,
} from '../src/index.js';

const request: StartCampaignRequest = {
  campaignId: 'spring',
  players: ['p1', 'p2', 'p3'],
  terms: {
    providerId: 1,
    gameIds: [102, 101],
    bonusType: 1,
    callAmount: 10,
    expireAt: '2026-06-30 23:59:59',
    metaData: { spinAmount: 3, baseBetAmount: 0.2 },
  },
};

const startedData: CampaignStarted['data'] = {
  campaignId: 'spring',
  requestHash: campaignRequestHash(request),
  requested: request.terms,
  terms: {
    providerId: 1,
    gameIds: [102, 101],
    bonusType: 1,
    currency: 'EUR',
    callAmountMinor: 1_000,
    spinAmount: 3,
    baseBetAmountMinor: 20,
    expireAt: '2026-06-30T23:59:59.000Z',
  },
  players: ['p1', 'p2', 'p3'],
  startedAt: '2026-05-01T00:00:00.000Z',
};

const now = '2026-05-01T00:00:01.000Z';

/** Decides each command on the state the previous ones left; the events of all, and the final state. */
function run(commands: CampaignCommand[], from: CampaignState = campaignDecider.initialState) {
  let state = from;
  const events: CampaignEvent[] = [];
  for (const command of commands) {
    const decided = campaignDecider.decide(command, state);
    if (!Array.isArray(decided)) return { refusal: decided, state, events };
    events.push(...decided);
    state = decided.reduce(campaignDecider.evolve, state);
  }
  return { refusal: undefined, state, events };
}

const start: CampaignCommand = { type: 'StartCampaign', data: startedData };
const progress = (
  registered: { playerId: string; issueId: number }[],
  refused: { playerId: string; code: 'ACTIVE_BONUS_EXISTS'; message: string }[] = [],
): CampaignCommand => ({ type: 'RecordCampaignProgress', data: { registered, refused, now } });

describe('the campaign decider', () => {
  it('starts a campaign once; the same request again is already done, another body is CAMPAIGN_ID_CONFLICT', () => {
    expect(run([start]).events).toEqual([{ type: 'CampaignStarted', data: startedData }]);
    expect(run([start, start]).events).toHaveLength(1);
    const other = run([start, { type: 'StartCampaign', data: { ...startedData, requestHash: 'f'.repeat(64) } }]);
    expect(other.refusal).toMatchObject({ type: 'Refusal', code: 'CAMPAIGN_ID_CONFLICT' });
  });

  it('a resend of the start is already done; another body is refused with a message naming the campaign', () => {
    const { state } = run([start]);
    expect(run([start, start]).refusal).toBeUndefined();
    expect(startedAgain(state, 'spring', startedData.requestHash)).toEqual([]);
    expect(startedAgain(state, 'spring', 'f'.repeat(64))).toMatchObject({
      code: 'CAMPAIGN_ID_CONFLICT',
      message: 'campaignId spring was started with a different request body',
    });
    expect(startedAgain(campaignDecider.initialState, 'spring', startedData.requestHash)).toBeUndefined();
  });

  it('keeps the first start when the stream holds another', () => {
    const { state } = run([start]);
    const again = campaignDecider.evolve(state, {
      type: 'CampaignStarted',
      data: { ...startedData, requestHash: 'f'.repeat(64), players: ['p9'] },
    });
    expect(again.started).toEqual(startedData);
    expect(pendingPlayers(again)).toEqual(['p1', 'p2', 'p3']);
  });

  it('a campaign never started has no players pending', () => {
    expect(pendingPlayers(campaignDecider.initialState)).toEqual([]);
  });

  it('records each player once and completes with the last one', () => {
    const refusedP2 = { playerId: 'p2', code: 'ACTIVE_BONUS_EXISTS' as const, message: 'player p2 already has …' };
    const first = run([start, progress([{ playerId: 'p1', issueId: 11 }])]);
    expect(pendingPlayers(first.state)).toEqual(['p2', 'p3']);
    expect(first.state.completedAt).toBeNull();

    // A batch reported again after a restart: only p3 is new; the campaign completes.
    const second = run(
      [
        progress(
          [
            { playerId: 'p1', issueId: 11 },
            { playerId: 'p3', issueId: 13 },
          ],
          [refusedP2],
        ),
      ],
      first.state,
    );
    expect(second.events).toEqual([
      { type: 'CampaignPlayersRegistered', data: { players: [{ playerId: 'p3', issueId: 13 }] } },
      { type: 'CampaignPlayersRefused', data: { players: [refusedP2] } },
      { type: 'CampaignCompleted', data: { registered: 2, refused: 1, completedAt: now } },
    ]);
    expect(second.state).toMatchObject({ registered: 2, refusals: [refusedP2], completedAt: now });
    expect(pendingPlayers(second.state)).toEqual([]);

    // Completed: the same report again changes nothing.
    expect(run([progress([{ playerId: 'p3', issueId: 13 }], [refusedP2])], second.state).events).toEqual([]);
  });

  it('refuses progress of a campaign never started and throws for a player not in it', () => {
    expect(run([progress([{ playerId: 'p1', issueId: 1 }])]).refusal).toMatchObject({
      code: 'CAMPAIGN_NOT_FOUND',
      message: 'the campaign was never started',
    });
    expect(() => run([start, progress([{ playerId: 'stranger', issueId: 1 }])])).toThrow(/not in campaign spring/);
  });

  it('does not change a state in place (the command handler caches states)', () => {
    const first = run([start, progress([{ playerId: 'p1', issueId: 11 }])]).state;
    const outcomes = new Map(first.outcomes);
    campaignDecider.evolve(first, {
      type: 'CampaignPlayersRegistered',
      data: { players: [{ playerId: 'p2', issueId: 12 }] },
    });
    expect(first.outcomes).toEqual(outcomes);
    expect(first.registered).toBe(1);
  });

  it('hashes a request with its games as a set and its players in order', () => {
    const hash = campaignRequestHash(request);
    expect(campaignRequestHash({ ...request, terms: { ...request.terms, gameIds: [101, 102] } })).toBe(hash);
    expect(campaignRequestHash({ ...request, players: ['p3', 'p2', 'p1'] })).not.toBe(hash);
    expect(campaignRequestHash({ ...request, terms: { ...request.terms, callAmount: 11 } })).not.toBe(hash);
    expect(campaignRequestHash({ ...request, terms: { ...request.terms, gameIds: [101, 103] } })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('the campaign decider on what it does not know', () => {
  it('throws for a command type it has no rule for', () => {
    const unknown = { type: 'PauseCampaign', data: {} } as unknown as CampaignCommand;
    expect(() => campaignDecider.decide(unknown, campaignDecider.initialState)).toThrow(
      'no rule for command PauseCampaign',
    );
  });

  it('stops the fold at an event type it has no rule for (a stream written by a newer version)', () => {
    const unknown = { type: 'CampaignPaused', data: {} } as unknown as CampaignEvent;
    expect(() => campaignDecider.evolve(campaignDecider.initialState, unknown)).toThrow(
      'no evolution for CampaignPaused',
    );
  });
});
