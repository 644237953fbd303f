/**
 * The game's own check of the ledger's answer (D18): a free spin is paid from the bonus the ledger
 * names, so a bonus of another operator or of another player is never taken as this player's, even
 * if a faulty ledger answered it. The ledger here answers what each test scripts (the real ledger
 * cannot answer another player's bonus, which is what this check guards against).
 */
import { describe, expect, it } from '@jest/globals';
import { errorReply, okReply, type BonusCallRecord } from '@reelstream/contracts';
import type { LedgerPort } from '../ports.js';
import { isRefused } from '../refused.js';
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

/** A ledger that answers GetActiveBonus with `answer` and records what it was asked. */
function ledgerAnswering(answer: () => Promise<unknown>) {
  const asked: unknown[] = [];
  const ledger = {
    call: async (type: string, data: unknown, correlationId: string) => {
      asked.push({ type, data, correlationId });
      return answer();
    },
    isTimeout: (error: unknown) => error instanceof TimedOut,
    settleSteeredSpin: () => Promise.reject(new Error('not asked here')),
  } as unknown as LedgerPort;
  return { ledger, asked };
}

describe('activeBonusOf', () => {
  it("asks for this operator's player and answers the player's own bonus", async () => {
    const own = bonus();
    const { ledger, asked } = ledgerAnswering(async () => okReply({ bonus: own }));
    await expect(activeBonusOf(ledger, session, 'corr-1')).resolves.toEqual(own);
    expect(asked).toEqual([
      { type: 'GetActiveBonus', data: { operatorId: 'casino-a', playerId: 'player_1' }, correlationId: 'corr-1' },
    ]);
  });

  it('answers null when the player has no active bonus', async () => {
    const { ledger } = ledgerAnswering(async () => okReply({ bonus: null }));
    await expect(activeBonusOf(ledger, session, 'corr-2')).resolves.toBeNull();
  });

  it.each([
    ['another operator', { operatorId: 'casino-b' }],
    ['another player', { playerId: 'player_2' }],
    ['another operator and player', { operatorId: 'casino-b', playerId: 'player_2' }],
  ])('refuses to take a bonus of %s as this player’s', async (_, owner) => {
    const { ledger } = ledgerAnswering(async () => okReply({ bonus: bonus(owner) }));
    await expect(activeBonusOf(ledger, session, 'corr-3')).rejects.toThrow(
      'the ledger answered bonus 4503599627370497 of another player',
    );
  });

  it("passes the ledger's refusal on with its code", async () => {
    const { ledger } = ledgerAnswering(async () => errorReply('BONUS_NOT_FOUND', 'no such bonus call'));
    const refusal = await activeBonusOf(ledger, session, 'corr-4').catch((error: unknown) => error);
    expect(isRefused(refusal, 'BONUS_NOT_FOUND')).toBe(true);
    expect((refusal as Error).message).toBe('no such bonus call');
  });

  it('a ledger that did not answer in time is SERVICE_UNAVAILABLE, retriable; any other failure is thrown as is', async () => {
    const timedOut = ledgerAnswering(() => Promise.reject(new TimedOut('stream kept changing')));
    const refusal = await activeBonusOf(timedOut.ledger, session, 'corr-5').catch((error: unknown) => error);
    expect(isRefused(refusal, 'SERVICE_UNAVAILABLE')).toBe(true);
    expect(refusal).toMatchObject({
      retriable: true,
      message: 'The bonus service did not answer in time; try again in a moment.',
    });
    const broken = new Error('disk full');
    const failing = ledgerAnswering(() => Promise.reject(broken));
    await expect(activeBonusOf(failing.ledger, session, 'corr-6')).rejects.toBe(broken);
  });
});
