import { describe, expect, it } from '@jest/globals';
import { campaignPlatformId, startCampaignRequest } from '../api/campaigns.js';
import { registerBonusCallRequest } from '../api/bonus-call.js';
import { campaignEventToAppend, campaignStream, parseCampaignEvent, parseCampaignStream } from './campaign.js';

const body = {
  campaignId: 'summer-26',
  players: ['p1', 'p2'],
  providerId: 7,
  gameId: 1001,
  bonusType: 'FreeSpin',
  callAmount: 50,
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
};

describe('the campaign request', () => {
  it('normalises its terms as a registration normalises them, so each player is that registration', () => {
    const { campaignId, players, terms } = startCampaignRequest.parse(body);
    const { campaignId: _id, players: _players, ...registration } = body;
    for (const playerId of players)
      expect({ ...terms, platformId: campaignPlatformId(campaignId, playerId), playerId }).toEqual(
        registerBonusCallRequest.parse({ ...registration, platformId: `summer-26:${playerId}`, playerId }),
      );
  });

  it.each([
    ['a player twice', { players: ['p1', 'p1'] }],
    ['no players', { players: [] }],
    ['10,001 players', { players: Array.from({ length: 10_001 }, (_, i) => `p${i}`) }],
    ['a campaignId of 14 characters', { campaignId: 'c'.repeat(14) }],
    ['a campaignId with a colon', { campaignId: 'a:b' }],
    ['bonusType 1 without metaData', { metaData: undefined }],
    ['a platformId', { platformId: 'x' }],
  ])('refuses %s', (_case, overrides) => {
    expect(startCampaignRequest.safeParse({ ...body, ...overrides }).success).toBe(false);
  });

  it('keeps every per-player platformId within the 64 characters of a platformId', () => {
    const { campaignId, players } = startCampaignRequest.parse({
      ...body,
      campaignId: 'c'.repeat(13),
      players: ['p'.repeat(50)],
    });
    expect(campaignPlatformId(campaignId, players[0] as string)).toHaveLength(64);
  });
});

describe('the campaign stream', () => {
  it('names its operator and campaign, escaped, and parses back', () => {
    const id = campaignStream('acme-casino', 'spring-1');
    expect(id).toBe('campaign-acme%2Dcasino-spring%2D1');
    expect(parseCampaignStream(id)).toEqual({ operatorId: 'acme-casino', campaignId: 'spring-1' });
    expect(parseCampaignStream('campaign-acme-casino-spring')).toBeUndefined();
    expect(parseCampaignStream('playerBonus-acme-p1')).toBeUndefined();
  });

  it('stores valid events only and reads back only campaign events of its version', () => {
    const context = {
      correlationId: 'r1',
      causationId: 'r1',
      operatorId: 'acme',
      occurredAt: '2026-05-01T00:00:00.000Z',
    };
    const completed = {
      type: 'CampaignCompleted' as const,
      data: { registered: 1, refused: 0, completedAt: context.occurredAt },
    };
    const stored = campaignEventToAppend(completed, context);
    expect(stored.metadata.schemaVersion).toBe(1);
    expect(parseCampaignEvent(stored)).toEqual(completed);
    expect(() =>
      campaignEventToAppend({ type: 'CampaignCompleted', data: { ...completed.data, registered: -1 } }, context),
    ).toThrow();
    expect(() => parseCampaignEvent({ ...stored, type: 'BonusCallRegistered' })).toThrow(/not a campaign event/);
    expect(() => parseCampaignEvent({ ...stored, metadata: { schemaVersion: 2 } })).toThrow(/version 2/);
  });
});
