/**
 * The game's own check of the ledger's answer (D18): a free spin is paid from the bonus the ledger
 * names, so a bonus of another operator or of another player is never taken as this player's, even
 * if a faulty ledger answered it. The bonus port here answers what each test scripts (the real one
 * cannot answer another player's bonus, which is what this check guards against).
 */
import { isRefusedError } from '@reelstream/contracts';
import { describe, expect, it } from '@jest/globals';
import type { BonusCallRecord } from '@reelstream/contracts';
import type { PlayerBonusPort } from '../ports.js';
import { activeBonusOf } from './active-bonus.js';

const session = { operatorId: 'casino-a', playerId: 'player_1' };

const bonus = (overrides: Partial<BonusCallRecord> = {}): BonusCallRecord => ({
  issueId: 4_503_599_627_370_497,
  platformId: 'promo-1',
  operatorId: 'casino-a',
  playerId: 'player_1',
  providerId: 1,
  gameIds: [101],
  bonusType: 1,
  currency: 'EUR',
  callAmountMinor: 5_000,
  spinAmount: 10,
  baseBetAmountMinor: 20,
  spinsUsed: 0,
  spinsLeft: 10,
  totalWinMinor: 0,
  winCapLeftMinor: 5_000,
  openRoundId: null,
  status: 'active',
  expireAt: '2026-06-30T23:59:59.000Z',
  createdAt: '2026-05-01T00:00:00.000Z',
  ...overrides,
});

class TimedOut extends Error {}

/** A bonus port that answers the active bonus with `answer` and records whose it was asked for. */
function bonusesAnswering(answer: () => Promise<BonusCallRecord | null>) {
  const asked: unknown[] = [];
  const bonuses: PlayerBonusPort = {
    active: async (operatorId, playerId) => {
      asked.push({ operatorId, playerId });
      return answer();
    },
    isUnanswered: (error) => error instanceof TimedOut,
    startFreeSpin: () => Promise.reject(new Error('not asked here')),
    settleFreeSpin: () => Promise.reject(new Error('not asked here')),
    settleSteeredSpin: () => Promise.reject(new Error('not asked here')),
  };
  return { bonuses, asked };
}

describe('activeBonusOf', () => {
  it("asks for this operator's player and answers the player's own bonus", async () => {
    const own = bonus();
    const { bonuses, asked } = bonusesAnswering(async () => own);
    await expect(activeBonusOf(bonuses, session)).resolves.toEqual(own);
    expect(asked).toEqual([{ operatorId: 'casino-a', playerId: 'player_1' }]);
  });

  it('answers null when the player has no active bonus', async () => {
    const { bonuses } = bonusesAnswering(async () => null);
    await expect(activeBonusOf(bonuses, session)).resolves.toBeNull();
  });

  it.each([
    ['another operator', { operatorId: 'casino-b' }],
    ['another player', { playerId: 'player_2' }],
    ['another operator and player', { operatorId: 'casino-b', playerId: 'player_2' }],
  ])('refuses to take a bonus of %s as this player’s', async (_, owner) => {
    const { bonuses } = bonusesAnswering(async () => bonus(owner));
    await expect(activeBonusOf(bonuses, session)).rejects.toThrow(
      'the ledger answered bonus 4503599627370497 of another player',
    );
  });

  it('a bonus stream that kept changing is SERVICE_UNAVAILABLE, retriable; any other failure is thrown as is', async () => {
    const timedOut = bonusesAnswering(() => Promise.reject(new TimedOut('stream kept changing')));
    const refusal = await activeBonusOf(timedOut.bonuses, session).catch((error: unknown) => error);
    expect(isRefusedError(refusal, 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(refusal).toMatchObject({
      retriable: true,
      retryAfterSeconds: 2,
      message: 'The bonus service did not answer in time; try again in a moment.',
    });
    const broken = new Error('disk full');
    const failing = bonusesAnswering(() => Promise.reject(broken));
    await expect(activeBonusOf(failing.bonuses, session)).rejects.toBe(broken);
  });
});
