import { describe, expect, it } from '@jest/globals';
import { bonusWebhookEventId, bonusWebhookOf, type WebhookSource } from './webhooks.js';

const source: WebhookSource = {
  eventId: '0b6f3c1e-8a51-4d9e-9f7a-2f1f4f7f0a11',
  revision: 4,
  operatorId: 'casino_a',
  playerId: 'player_1',
  occurredAt: '2026-11-27T04:00:00.000Z',
  currency: 'EUR',
};

describe('bonus webhooks: one per state change, its id derived from the stored event', () => {
  it('keeps the id across deliveries and never reuses the stored id itself', () => {
    expect(bonusWebhookEventId(source.eventId)).toBe(`bw-${source.eventId}`);
    const event = {
      type: 'BonusCallExpired' as const,
      data: { issueId: 9, spinsForfeited: 3, totalWinMinor: 1234, expiredAt: source.occurredAt },
    };
    expect(bonusWebhookOf(event, source)).toEqual(bonusWebhookOf(event, source));
  });

  it('writes amounts in currency units, with the state and the counts of each change', () => {
    const settled = bonusWebhookOf(
      {
        type: 'FreeSpinSettled',
        data: {
          issueId: 9,
          roundId: 77,
          gameId: 101,
          spinNumber: 2,
          rawWinMinor: 150,
          winMinor: 150,
          totalWinMinor: 1_250,
          spinsLeft: 8,
          settledAt: source.occurredAt,
          transactionId: 5,
        },
      },
      source,
    );
    expect(settled).toEqual({
      operatorId: 'casino_a',
      webhook: {
        eventId: `bw-${source.eventId}`,
        type: 'bonus.spin_settled',
        bonusId: 9,
        playerId: 'player_1',
        sequence: 4,
        occurredAt: source.occurredAt,
        status: 'active',
        currency: 'EUR',
        spinsUsed: 2,
        totalWin: 12.5,
        win: 1.5,
        roundId: 77,
      },
    });
    const expired = bonusWebhookOf(
      {
        type: 'BonusCallExpired',
        data: { issueId: 9, spinsForfeited: 3, totalWinMinor: 1_234, expiredAt: source.occurredAt },
      },
      { ...source, currency: 'KRW' },
    );
    expect(expired?.webhook).toMatchObject({
      type: 'bonus.expired',
      status: 'expired',
      totalWin: 1_234,
      spinsForfeited: 3,
    });
  });

  it('a steered spin of a Regular Bonus Call is a spin_settled too, its win with the top-up (ADR 0012)', () => {
    const steered = bonusWebhookOf(
      {
        type: 'RegularBonusSpinSettled',
        data: {
          issueId: 9,
          roundId: 78,
          gameId: 101,
          spinNumber: 3,
          betMinor: 100,
          reelWinMinor: 400,
          topUpMinor: 7,
          winMinor: 407,
          totalWinMinor: 2_000,
          outcome: { draws: [1, 2] },
          settledAt: source.occurredAt,
        },
      },
      source,
    );
    expect(steered?.webhook).toMatchObject({
      type: 'bonus.spin_settled',
      status: 'active',
      spinsUsed: 3,
      win: 4.07,
      totalWin: 20,
      roundId: 78,
    });
  });

  it('sends nothing for a spin that only started', () => {
    expect(
      bonusWebhookOf(
        {
          type: 'FreeSpinStarted',
          data: {
            issueId: 9,
            roundId: 77,
            gameId: 101,
            spinNumber: 2,
            baseBetAmountMinor: 20,
            winCapLeftMinor: 100,
            startedAt: source.occurredAt,
          },
        },
        source,
      ),
    ).toBeUndefined();
  });
});
