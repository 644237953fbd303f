import { describe, expect, it } from '@jest/globals';
import { failure } from './envelope.js';
import { httpStatusOf } from '@reelstream/errors';
import { playerRound, playerSession, spinRequest, spinResponse, spinResult } from './player-api.js';

const bonus = {
  issueId: 171234567890123,
  status: 'active',
  currency: 'EUR',
  playable: true,
  spinAmount: 10,
  spinsUsed: 3,
  spinsLeft: 7,
  baseBet: 0.2,
  winSoFar: 1.6,
  winCap: 50,
  winCapLeft: 48.4,
  expireAt: '2026-06-30T23:59:59.000Z',
};
const session = {
  playerId: 'player_42',
  game: { gameId: 101, providerId: 1, name: 'Lotus Garden', type: 'slot' },
  layout: {
    kind: 'slot',
    reels: 5,
    rows: 3,
    symbols: [{ code: 'W', name: 'Wild', role: 'wild' }],
    paylines: [[1, 1, 1, 1, 1]],
  },
  currency: 'EUR',
  language: 'ko',
  returnUrl: 'https://casino.example/lobby',
  demo: false,
  balance: null,
  pendingWin: 0,
  betLevels: [0.2, 0.4, 1],
  activeBonus: bonus,
  expiresAt: '2026-05-01T14:00:00.000Z',
};
const slotOutcome = {
  kind: 'slot',
  window: ['AKQ', 'JTW', 'AAS', 'KQJ', 'T9A'],
  lineWins: [{ line: 0, symbol: 'A', count: 3, win: 0.5 }],
  scatterCount: 1,
  scatterWin: 0,
  multiplier: 1,
  win: 0.5,
  feature: null,
};

describe('player API (D23): the session view', () => {
  it('accepts a session with an unknown balance and an active bonus', () => {
    expect(playerSession.parse(session)).toEqual(session);
  });

  it('refuses a returnUrl that is not http(s), so the back button can never run script', () => {
    expect(playerSession.safeParse({ ...session, returnUrl: 'javascript:alert(1)' }).success).toBe(false);
  });

  it('carries the bonus currency and whether this session can play it (D6 amended: a KRW bonus in a EUR session is not playable)', () => {
    const elsewhere = {
      ...session,
      activeBonus: {
        ...bonus,
        currency: 'KRW',
        playable: false,
        baseBet: 200,
        winSoFar: 0,
        winCap: 50_000,
        winCapLeft: 50_000,
      },
    };
    expect(playerSession.parse(elsewhere)).toEqual(elsewhere);
    const { currency: _currency, ...withoutCurrency } = bonus;
    expect(playerSession.safeParse({ ...session, activeBonus: withoutCurrency }).success).toBe(false);
    const { playable: _playable, ...withoutPlayable } = bonus;
    expect(playerSession.safeParse({ ...session, activeBonus: withoutPlayable }).success).toBe(false);
  });

  it('refuses a bonus whose spins left are negative', () => {
    expect(playerSession.safeParse({ ...session, activeBonus: { ...bonus, spinsLeft: -1 } }).success).toBe(false);
  });
});

describe('player API (D23, ADR 0012): a Regular Bonus Call in the session and in a steered spin', () => {
  const regular = {
    bonusType: 2,
    issueId: 171234567890124,
    status: 'active',
    currency: 'EUR',
    playable: true,
    callAmount: 12.37,
    delivered: 3.2,
    left: 9.17,
    spinsUsed: 4,
    expireAt: '2026-06-30T23:59:59.000Z',
  };
  const steered = {
    bonusType: 2,
    issueId: 171234567890124,
    spinNumber: 5,
    callAmount: 12.37,
    delivered: 12.37,
    left: 0,
    topUp: 0.03,
    status: 'completed',
    completed: true,
  };
  const paidSpin = {
    roundId: 9002,
    kind: 'paid',
    currency: 'EUR',
    bet: 1,
    win: 9.17,
    balance: 990,
    pendingWin: 9.17,
    outcome: slotOutcome,
  };

  it('the session shows its progress; the free-spin view is still accepted as it was', () => {
    expect(playerSession.parse({ ...session, activeBonus: regular })).toEqual({ ...session, activeBonus: regular });
    expect(playerSession.parse(session).activeBonus).toEqual(bonus);
  });

  it('a steered spin answers the progress after it, next to a free spin answering its own', () => {
    expect(spinResult.parse({ ...paidSpin, bonus: steered }).bonus).toEqual(steered);
  });

  it.each([
    ['a bonusType other than 2', { bonusType: 1 }],
    ['a negative rest', { left: -0.01 }],
    ['a status outside D12', { status: 'done' }],
    ['a free-spin field', { spinsLeft: 0 }],
  ])('refuses a steered spin progress with %s', (_name, change) => {
    expect(spinResult.safeParse({ ...paidSpin, bonus: { ...steered, ...change } }).success).toBe(false);
  });

  it('refuses a session bonus mixing the two views, or a regular one without its target', () => {
    expect(playerSession.safeParse({ ...session, activeBonus: { ...regular, spinsLeft: 3 } }).success).toBe(false);
    expect(playerSession.safeParse({ ...session, activeBonus: { ...bonus, bonusType: 2 } }).success).toBe(false);
    const { callAmount: _callAmount, ...withoutTarget } = regular;
    expect(playerSession.safeParse({ ...session, activeBonus: withoutTarget }).success).toBe(false);
  });
});

describe('player API (D23): the spin request', () => {
  it('accepts a paid spin, a free spin naming its bonus, and the session player named', () => {
    expect(spinRequest.parse({ bet: 0.2 })).toEqual({ bet: 0.2 });
    expect(spinRequest.parse({ issueId: 5, playerId: 'player_42' })).toEqual({ issueId: 5, playerId: 'player_42' });
  });

  it.each([{ bet: 0 }, { bet: -1 }, { bet: '1' }, { bet: 1, amount: 1 }, { playerId: 'a-b' }, { issueId: 1.5 }])(
    'refuses %j',
    (body) => {
      expect(spinRequest.safeParse(body).success).toBe(false);
    },
  );
});

describe('player API (D23): results', () => {
  it('accepts a free spin that completed its bonus, in the OK envelope', () => {
    const result = {
      roundId: 9001,
      kind: 'free',
      currency: 'EUR',
      bet: 0.2,
      win: 0.5,
      balance: 100.5,
      pendingWin: 0.5,
      outcome: slotOutcome,
      bonus: {
        issueId: 5,
        spinNumber: 10,
        spinsLeft: 0,
        winSoFar: 2.1,
        winCapLeft: 47.9,
        capped: false,
        completed: true,
      },
    };
    expect(spinResponse.parse({ success: true, message: 'OK', data: result }).data).toEqual(spinResult.parse(result));
  });

  it('accepts an instant round and a canceled round without outcome', () => {
    expect(
      spinResult.safeParse({
        roundId: 1,
        kind: 'paid',
        currency: 'EUR',
        bet: 1,
        win: 1.2,
        balance: 10,
        pendingWin: 0,
        outcome: { kind: 'instant', segment: 2, multiplier: 1.2 },
        bonus: null,
      }).success,
    ).toBe(true);
    // Every amount crosses the boundary with its currency.
    expect(
      spinResult.safeParse({
        roundId: 1,
        kind: 'paid',
        bet: 1,
        win: 1.2,
        balance: 10,
        pendingWin: 0,
        outcome: { kind: 'instant', segment: 2, multiplier: 1.2 },
        bonus: null,
      }).success,
    ).toBe(false);
    const canceled = {
      roundId: 1,
      kind: 'paid',
      status: 'canceled',
      currency: 'EUR',
      bet: 1,
      win: null,
      outcome: null,
      reason: 'bet_rejected:ERR_NOT_ENOUGH_MONEY',
      startedAt: '2026-05-01T10:00:00.000Z',
    };
    expect(playerRound.parse(canceled)).toEqual(canceled);
  });

  it('refuses a kind other than paid, free and demo', () => {
    expect(
      spinResult.safeParse({
        roundId: 1,
        kind: 'bonus',
        currency: 'EUR',
        bet: 1,
        win: 0,
        balance: null,
        pendingWin: 0,
        outcome: slotOutcome,
        bonus: null,
      }).success,
    ).toBe(false);
  });

  it('answers refusals in the API envelope with the catalogue status (D16)', () => {
    expect(failure('SPIN_IN_PROGRESS')).toEqual({
      success: false,
      message: 'A spin of this game session is still in progress.',
      data: null,
      error: { code: 'SPIN_IN_PROGRESS' },
    });
    expect([
      httpStatusOf('SPIN_IN_PROGRESS'),
      httpStatusOf('PLAYER_NOT_AUTHENTICATED'),
      httpStatusOf('ROUND_NOT_FOUND'),
      httpStatusOf('WALLET_UNAVAILABLE'),
    ]).toEqual([409, 403, 404, 503]);
  });
});
