import { describe, expect, it } from '@jest/globals';
import { cancelCallback, callbackRequestFor, encodeCallback } from '@reelstream/contracts';
import { callbackFor, cancelCallbackFor, unixSecondsOf } from '../src/index.js';
import { bet, betwin, win } from './fixtures.js';

describe('callbackFor: a wallet request as the operator sees it (spec §6, D22)', () => {
  it('a bet: amount in currency units, gameCode from gameId, timestamp in Unix seconds of the request', () => {
    expect(callbackFor(bet)).toEqual({
      command: 'bet',
      transactionId: 101,
      playerId: 'player_42',
      roundId: 201,
      providerId: 7,
      gameCode: 1001,
      bonusId: 0,
      timestamp: 1_777_629_600,
      currency: 'EUR',
      amount: 1.5,
      isBonusBusy: false,
    });
  });

  it('a win and a betwin carry no currency; a zero-decimal currency stays whole', () => {
    expect(callbackFor(win)).toMatchObject({ command: 'win', amount: 4, isRoundFinished: true });
    expect(callbackFor(betwin)).toMatchObject({ command: 'betwin', betAmount: 1, winAmount: 2.5 });
    expect(callbackFor({ ...bet, currency: 'JPY', amountMinor: 150 })).toMatchObject({ amount: 150, currency: 'JPY' });
    expect(callbackFor({ ...bet, currency: 'BHD', amountMinor: 1_005 })).toMatchObject({ amount: 1.005 });
  });

  it('is a valid callback in either id encoding (D7), bonusId a JSON number in both', () => {
    for (const request of [bet, win, betwin, { ...win, bonusId: 244376873632000 }]) {
      for (const encoding of ['string', 'number'] as const) {
        const wire = encodeCallback(callbackFor(request), encoding);
        expect(callbackRequestFor(encoding).safeParse(wire).success).toBe(true);
        expect(wire.bonusId).toBe(request.bonusId);
      }
    }
  });

  it('a time is read to the second', () => {
    expect(unixSecondsOf('1970-01-01T00:00:01.999Z')).toBe(1);
    expect(() => unixSecondsOf('yesterday')).toThrow(/ISO-8601/);
  });
});

describe('cancelCallbackFor: D9', () => {
  it('its own transactionId, the reverted one as refTransactionId, the stake as amount, its own timestamp', () => {
    const body = cancelCallbackFor(bet, { cancelTransactionId: 900, requestedAt: '2026-05-01T10:00:03.500Z' });
    expect(body).toEqual({
      command: 'cancel',
      transactionId: 900,
      refTransactionId: 101,
      playerId: 'player_42',
      roundId: 201,
      providerId: 7,
      gameCode: 1001,
      amount: 1.5,
      bonusId: 0,
      timestamp: 1_777_629_603,
    });
    expect(cancelCallback.parse(body)).toEqual(body);
    expect(Object.keys(encodeCallback(body, 'string'))).toEqual([
      'command',
      'transactionId',
      'refTransactionId',
      'playerId',
      'roundId',
      'providerId',
      'gameCode',
      'amount',
      'bonusId',
      'timestamp',
    ]);
  });

  it('a betwin’s cancel carries what the betwin moved: betAmount and winAmount, no amount (D9 amended)', () => {
    const body = cancelCallbackFor(betwin, { cancelTransactionId: 901, requestedAt: '2026-05-01T10:00:04.000Z' });
    expect(body).toEqual({
      command: 'cancel',
      transactionId: 901,
      refTransactionId: 103,
      playerId: 'player_42',
      roundId: 201,
      providerId: 7,
      gameCode: 1001,
      betAmount: 1,
      winAmount: 2.5,
      bonusId: 0,
      timestamp: 1_777_629_604,
    });
    expect(body).not.toHaveProperty('amount');
    expect(cancelCallback.parse(body)).toEqual(body);
    for (const encoding of ['string', 'number'] as const) {
      expect(Object.keys(encodeCallback(body, encoding))).toEqual([
        'command',
        'transactionId',
        'refTransactionId',
        'playerId',
        'roundId',
        'providerId',
        'gameCode',
        'betAmount',
        'winAmount',
        'bonusId',
        'timestamp',
      ]);
    }
    expect(
      cancelCallbackFor(
        { ...betwin, currency: 'JPY', betMinor: 200, winMinor: 0 },
        { cancelTransactionId: 903, requestedAt: betwin.requestedAt },
      ),
    ).toMatchObject({ betAmount: 200, winAmount: 0 });
  });

  it('a betwin’s cancel gives back the stake and takes back the win its callback moved, in every exponent', () => {
    // Stake and win differ in each case, so an exchanged or dropped amount cannot pass.
    for (const [currency, betMinor, winMinor] of [
      ['EUR', 150, 1_275],
      ['JPY', 300, 0],
      ['BHD', 1_005, 20],
      ['CLF', 12_345, 1],
    ] as const) {
      const moved = { ...betwin, currency, betMinor, winMinor };
      const sent = callbackFor(moved);
      const cancel = cancelCallbackFor(moved, { cancelTransactionId: 904, requestedAt: moved.requestedAt });
      expect(sent).toMatchObject({ command: 'betwin' });
      if (sent.command !== 'betwin') throw new Error('not a betwin');
      expect({ currency, betAmount: cancel.betAmount, winAmount: cancel.winAmount }).toEqual({
        currency,
        betAmount: sent.betAmount,
        winAmount: sent.winAmount,
      });
      expect(cancel.betAmount).not.toBe(cancel.winAmount);
    }
  });

  it('a win is never canceled', () => {
    expect(() => cancelCallbackFor(win, { cancelTransactionId: 902, requestedAt: win.requestedAt })).toThrow(
      /never canceled/,
    );
  });
});
