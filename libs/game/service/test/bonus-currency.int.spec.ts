/**
 * D6 amended: a bonus call is denominated in the currency fixed at its registration,
 * and its free spins are played only in a game session of that currency. In a session of another
 * currency the player API shows it as not playable here, and spins are paid; nothing converts.
 */
import { describe, expect, it } from '@jest/globals';
import { playerSessionResponse, spinResponse } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

const stack = Stack.forTests();

describe('a KRW bonus call of an operator whose default currency is EUR', () => {
  it('is registered in KRW, shown but not played in a EUR session (spins there are paid), and played in a KRW session', async () => {
    const issueId = await stack.registerFreeSpins({
      playerId: 'won_player',
      spinAmount: 2,
      callAmount: 50_000,
      baseBetAmount: 200,
      currency: 'KRW',
    });
    expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({
      currency: 'KRW',
      callAmount: 50_000,
      baseBetAmount: 200,
    });

    const eur = await stack.launch('won_player', 101);
    const view = playerSessionResponse.parse((await stack.session(eur.token)).body).data;
    expect(view).toMatchObject({
      currency: 'EUR',
      activeBonus: { issueId, currency: 'KRW', playable: false, baseBet: 200, winCap: 50_000, spinsLeft: 2 },
    });

    // Asked to play it here: refused, nothing started. Without a bet: a paid spin, which needs one.
    const refused = await stack.spin(eur.token, { issueId });
    expect([refused.status, refused.body.error.code]).toEqual([409, 'BONUS_CURRENCY_MISMATCH']);
    expect((await stack.spin(eur.token, {})).body.error.code).toBe('VALIDATION_FAILED');
    const paid = spinResponse.parse((await stack.spin(eur.token, { bet: 0.2 })).body).data;
    expect(paid).toMatchObject({ kind: 'paid', currency: 'EUR', bet: 0.2, bonus: null });
    expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({ spinsUsed: 0, status: 'active' });
    const bet = stack.publishedFor('won_player').find((request) => request.command === 'bet');
    expect(bet).toMatchObject({ currency: 'EUR', amountMinor: 20, isBonusBusy: true });

    const krw = await stack.launch('won_player', 101, { currency: 'KRW' });
    expect(playerSessionResponse.parse((await stack.session(krw.token)).body).data).toMatchObject({
      currency: 'KRW',
      activeBonus: { issueId, currency: 'KRW', playable: true },
    });
    const free = spinResponse.parse((await stack.spin(krw.token, { issueId })).body).data;
    expect(free).toMatchObject({
      kind: 'free',
      currency: 'KRW',
      bet: 200,
      bonus: { issueId, spinNumber: 1, spinsLeft: 1 },
    });
    const win = await eventually(() => {
      const found = stack
        .publishedFor('won_player')
        .find((request) => request.command === 'win' && request.roundId === free.roundId);
      expect(found).toBeDefined();
      return found;
    });
    expect(win).toMatchObject({ currency: 'KRW', bonusId: issueId, amountMinor: free.win });
  });

  it('is refused at registration in a currency the operator does not allow, and with a base bet that is a EUR level but not a KRW one', async () => {
    await expect(
      stack.registerFreeSpins({ playerId: 'usd_player', spinAmount: 2, callAmount: 50, currency: 'USD' }),
    ).rejects.toThrow(/422.*CURRENCY_NOT_ALLOWED/);
    await expect(
      stack.registerFreeSpins({
        playerId: 'usd_player',
        spinAmount: 2,
        callAmount: 50_000,
        baseBetAmount: 20,
        currency: 'KRW',
      }),
    ).rejects.toThrow(/422.*BET_LEVEL_NOT_AVAILABLE/);
  });
});
