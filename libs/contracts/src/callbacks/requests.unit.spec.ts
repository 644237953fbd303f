import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import {
  betCallback,
  callbackRequest,
  callbackRequestFor,
  cancelCallback,
  encodeCallback,
  parseCallback,
  winCallback,
  type CallbackRequest,
} from './requests.js';

const bet = {
  command: 'bet',
  transactionId: 171234567890001,
  playerId: 'player_42',
  roundId: 171234567890002,
  providerId: 7,
  gameCode: 1001,
  currency: 'EUR',
  amount: 1.5,
  isBonusBusy: false,
  bonusId: 0,
  timestamp: 1777777777,
} as const satisfies CallbackRequest;

const win = {
  command: 'win',
  transactionId: 11,
  playerId: 'player_42',
  roundId: 12,
  providerId: 7,
  gameCode: 1001,
  amount: 0,
  isRoundFinished: true,
  bonusId: 99,
  timestamp: 1777777778,
} as const;
const betwin = {
  command: 'betwin',
  transactionId: 13,
  playerId: 'player_42',
  roundId: 14,
  providerId: 7,
  gameCode: 1001,
  betAmount: 2,
  winAmount: 7.25,
  bonusId: 0,
  timestamp: 1777777779,
} as const;
const cancel = {
  command: 'cancel',
  transactionId: 15,
  refTransactionId: 13,
  playerId: 'player_42',
  roundId: 14,
  providerId: 7,
  gameCode: 1001,
  amount: 2,
  bonusId: 0,
  timestamp: 1777777780,
} as const;
const cancelOfBetwin = {
  command: 'cancel',
  transactionId: 16,
  refTransactionId: 13,
  playerId: 'player_42',
  roundId: 14,
  providerId: 7,
  gameCode: 1001,
  betAmount: 2,
  winAmount: 7.25,
  bonusId: 0,
  timestamp: 1777777781,
} as const;

describe('callbacks: ids are strings of digits by default, JSON numbers per operator setting (decisions.md D7)', () => {
  it('writes a bet with string ids in the field order of spec §6.1', () => {
    const wire = encodeCallback(bet, 'string');
    expect(JSON.stringify(wire)).toBe(
      '{"command":"bet","transactionId":"171234567890001","playerId":"player_42","roundId":"171234567890002","providerId":7,"gameCode":1001,"currency":"EUR","amount":1.5,"isBonusBusy":false,"bonusId":0,"timestamp":1777777777}',
    );
  });

  it('writes a bet with number ids for an operator set to "number"', () => {
    expect(JSON.stringify(encodeCallback(bet, 'number'))).toBe(
      '{"command":"bet","transactionId":171234567890001,"playerId":"player_42","roundId":171234567890002,"providerId":7,"gameCode":1001,"currency":"EUR","amount":1.5,"isBonusBusy":false,"bonusId":0,"timestamp":1777777777}',
    );
  });

  it('writes win (§6.2), betwin (§6.3) and cancel (D9) in their documented order', () => {
    expect(Object.keys(encodeCallback(win, 'string'))).toEqual([
      'command',
      'transactionId',
      'playerId',
      'roundId',
      'providerId',
      'gameCode',
      'amount',
      'isRoundFinished',
      'bonusId',
      'timestamp',
    ]);
    expect(Object.keys(encodeCallback(betwin, 'string'))).toEqual([
      'command',
      'transactionId',
      'playerId',
      'roundId',
      'providerId',
      'gameCode',
      'betAmount',
      'winAmount',
      'bonusId',
      'timestamp',
    ]);
    expect(encodeCallback(cancel, 'string')).toEqual({
      ...cancel,
      transactionId: '15',
      refTransactionId: '13',
      roundId: '14',
    });
    expect(Object.keys(encodeCallback(cancel, 'number'))).toEqual([
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

  it('parses either encoding back to numeric ids', () => {
    expect(parseCallback(encodeCallback(bet, 'string'))).toEqual(bet);
    expect(parseCallback(encodeCallback(bet, 'number'))).toEqual(bet);
    expect(callbackRequest.parse({ ...win, transactionId: '11', roundId: 12 })).toEqual(win);
  });

  it('with an encoding given, refuses the other one', () => {
    expect(callbackRequestFor('string').safeParse(encodeCallback(bet, 'number')).success).toBe(false);
    expect(callbackRequestFor('number').safeParse(encodeCallback(bet, 'string')).success).toBe(false);
    expect(() => parseCallback(encodeCallback(win, 'string'), 'number')).toThrow();
    expect(parseCallback(encodeCallback(win, 'number'), 'number')).toEqual(win);
  });

  it.each(['0', '007', '1.0', '-5', 'abc', '', '9007199254740993', 1.5, 0, -1])(
    'refuses transactionId %j',
    (transactionId) => {
      expect(callbackRequest.safeParse({ ...bet, transactionId }).success).toBe(false);
    },
  );

  it('accepts bonusId 0 (no bonus, spec §2.5) or an issueId, as a JSON number only', () => {
    expect(winCallback.parse({ ...win, bonusId: 0 }).bonusId).toBe(0);
    expect(winCallback.parse({ ...win, bonusId: 244376873632000 }).bonusId).toBe(244376873632000);
    for (const bonusId of ['0', '99', '00', -1, 1.5])
      expect({ bonusId, success: winCallback.safeParse({ ...win, bonusId }).success }).toEqual({
        bonusId,
        success: false,
      });
  });

  it.each(['string', 'number'] as const)(
    'sends bonusId as a JSON number with %s ids, in every command (D7 amended)',
    (encoding) => {
      for (const callback of [
        bet,
        { ...win, bonusId: 244376873632000 },
        betwin,
        cancel,
        cancelOfBetwin,
      ] as CallbackRequest[]) {
        const text = JSON.stringify(encodeCallback(callback, encoding));
        expect(text).toContain(`"bonusId":${callback.bonusId},`);
        expect(callbackRequestFor(encoding).parse(JSON.parse(text))).toEqual(callback);
      }
      expect(JSON.stringify(encodeCallback(bet, encoding))).toContain(
        encoding === 'string' ? '"transactionId":"171234567890001"' : '"transactionId":171234567890001',
      );
    },
  );

  it('encodeCallback refuses an invalid body instead of sending it', () => {
    expect(() => encodeCallback({ ...bet, playerId: 'bad-id' }, 'string')).toThrow();
    expect(() => encodeCallback({ ...bet, amount: Number.NaN }, 'number')).toThrow();
  });
});

describe('callbacks: fields as specified (spec §6, decisions.md D9, D10, D22)', () => {
  it('bet carries currency and isBonusBusy; win carries no currency (as specified) and isRoundFinished', () => {
    expect(betCallback.safeParse({ ...bet, currency: undefined }).success).toBe(false);
    expect(betCallback.safeParse({ ...bet, isBonusBusy: 'false' }).success).toBe(false);
    expect(winCallback.safeParse({ ...win, currency: 'EUR' }).success).toBe(false);
    expect(winCallback.safeParse({ ...win, isRoundFinished: undefined }).success).toBe(false);
  });

  it('a free-spin win may be 0 (D10); a bet may not', () => {
    expect(winCallback.parse({ ...win, amount: 0 }).amount).toBe(0);
    expect(betCallback.safeParse({ ...bet, amount: 0 }).success).toBe(false);
  });

  it('betwin is the documented command name, not "bet" as in the sample', () => {
    expect(callbackRequest.safeParse({ ...betwin, command: 'bet' }).success).toBe(false);
    expect(callbackRequest.parse(betwin).command).toBe('betwin');
  });

  it('cancel carries its own transactionId and the refTransactionId it reverts (D9)', () => {
    expect(cancelCallback.parse(cancel)).toEqual(cancel);
    const { refTransactionId: _ref, ...withoutRef } = cancel;
    expect(cancelCallback.safeParse(withoutRef).success).toBe(false);
  });

  it('the cancel of a betwin carries betAmount and winAmount, written in that order (D9 amended)', () => {
    expect(cancelCallback.parse(cancelOfBetwin)).toEqual(cancelOfBetwin);
    expect(JSON.stringify(encodeCallback(cancelOfBetwin, 'string'))).toBe(
      '{"command":"cancel","transactionId":"16","refTransactionId":"13","playerId":"player_42","roundId":"14","providerId":7,"gameCode":1001,"betAmount":2,"winAmount":7.25,"bonusId":0,"timestamp":1777777781}',
    );
    expect(cancelCallback.parse({ ...cancelOfBetwin, winAmount: 0 }).winAmount).toBe(0);
  });

  it('a cancel carries either amount or both betAmount and winAmount', () => {
    const { betAmount: _bet, winAmount: _win, ...bare } = cancelOfBetwin;
    const refusals: [string, unknown][] = [
      ['neither', bare],
      ['both shapes', { ...cancelOfBetwin, amount: 2 }],
      ['betAmount alone', { ...bare, betAmount: 2 }],
      ['winAmount alone', { ...bare, winAmount: 7.25 }],
      ['a zero stake', { ...cancelOfBetwin, betAmount: 0 }],
    ];
    for (const [what, body] of refusals)
      expect({ what, success: callbackRequest.safeParse(body).success }).toEqual({ what, success: false });
    expect(() => encodeCallback(bare as unknown as CallbackRequest, 'number')).toThrow(/amount/);
  });

  it('timestamp is whole Unix seconds (D22), not milliseconds as a float', () => {
    expect(betCallback.safeParse({ ...bet, timestamp: 1777777777.5 }).success).toBe(false);
    expect(betCallback.safeParse({ ...bet, timestamp: '1777777777' }).success).toBe(false);
  });

  it('refuses unknown commands and extra fields', () => {
    expect(callbackRequest.safeParse({ ...bet, command: 'refund' }).success).toBe(false);
    expect(callbackRequest.safeParse({ ...bet, extra: 1 }).success).toBe(false);
  });
});

describe('callbacks: parse ∘ encodeCallback is the identity for both encodings (property)', () => {
  const id = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
  const amount = fc.integer({ min: 1, max: 10_000_000 }).map((cents) => cents / 100);
  const common = {
    transactionId: id,
    playerId: fc.stringMatching(/^[A-Za-z0-9_]{1,50}$/),
    roundId: id,
    providerId: id,
    gameCode: id,
    bonusId: fc.oneof(fc.constant(0), id),
    timestamp: fc.integer({ min: 0, max: 4_000_000_000 }),
  };
  const body: fc.Arbitrary<CallbackRequest> = fc.oneof(
    fc.record({
      command: fc.constant('bet' as const),
      ...common,
      currency: fc.constantFrom('EUR', 'KRW', 'USD'),
      amount,
      isBonusBusy: fc.boolean(),
    }),
    fc.record({
      command: fc.constant('win' as const),
      ...common,
      amount: fc.oneof(fc.constant(0), amount),
      isRoundFinished: fc.boolean(),
    }),
    fc.record({ command: fc.constant('betwin' as const), ...common, betAmount: amount, winAmount: amount }),
    fc.record({ command: fc.constant('cancel' as const), ...common, refTransactionId: id, amount }),
    fc.record({
      command: fc.constant('cancel' as const),
      ...common,
      refTransactionId: id,
      betAmount: amount,
      winAmount: fc.oneof(fc.constant(0), amount),
    }),
  );
  it('holds', () => {
    fc.assert(
      fc.property(body, fc.constantFrom('string' as const, 'number' as const), (callback, encoding) => {
        const wire = encodeCallback(callback, encoding);
        expect(parseCallback(JSON.parse(JSON.stringify(wire)), encoding)).toEqual(callback);
        expect(encodeCallback(parseCallback(wire), encoding)).toEqual(wire);
      }),
    );
  });
});
