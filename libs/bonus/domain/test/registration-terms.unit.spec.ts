/**
 * The bonus terms in the decider (the authority): the bonus's currency is one the
 * operator allows, its base bet a bet level of every game in that currency, its amounts within
 * the operator's limits for that currency.
 */
import { describe, expect, it } from '@jest/globals';
import { deciderSpecification } from '@reelstream/testing';
import { bonusDecider, DEFAULT_MAX_CALL_IN_TOP_BETS, effectiveLimits, limitRefusal } from '../src/index.js';
import { catalog, LEVELS_101, register, registered, terms } from './fixtures.js';

const spec = deciderSpecification(bonusDecider);
const KRW_LEVELS = [200, 400, 1_000, 2_000, 4_000, 10_000];
const krwCatalog = { ...catalog, games: catalog.games.map((game) => ({ ...game, betLevelsMinor: KRW_LEVELS })) };
const twoCurrencies = { currencies: ['EUR', 'KRW'], limits: { KRW: { maxCallAmount: 500_000 } } };

describe('RegisterBonusCall: bet levels', () => {
  it('accepts a base bet that is a level of every game', () => {
    spec
      .given([])
      .when(register({ gameIds: [101, 104], baseBetAmountMinor: 100 }))
      .then([registered({ gameIds: [101, 104], baseBetAmountMinor: 100 })]);
  });

  it('refuses 0.3 (no game has it) with BET_LEVEL_NOT_AVAILABLE, listing the levels', () => {
    spec
      .given([])
      .when(register({ baseBetAmountMinor: 30 }))
      .thenFails({
        code: 'BET_LEVEL_NOT_AVAILABLE',
        message: 'baseBetAmount 0.3 EUR is not a bet level of every game of the bonus call',
        details: [
          { path: 'metaData.baseBetAmount', message: 'game 101 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
          { path: 'metaData.baseBetAmount', message: 'game 102 offers 0.2, 0.4, 1, 2, 4, 10 EUR' },
          {
            path: 'metaData.baseBetAmount',
            message: 'levels every game of the bonus offers: 0.2, 0.4, 1, 2, 4, 10 EUR',
          },
        ],
      });
  });

  it('refuses a level of one game that another game of the bonus lacks, naming only that game and the common levels', () => {
    spec
      .given([])
      .when(register({ gameIds: [101, 104], baseBetAmountMinor: 20 }))
      .thenFails({
        code: 'BET_LEVEL_NOT_AVAILABLE',
        details: [
          { path: 'metaData.baseBetAmount', message: 'game 104 offers 0.25, 0.5, 1, 2.5, 5, 10 EUR' },
          { path: 'metaData.baseBetAmount', message: 'levels every game of the bonus offers: 1, 10 EUR' },
        ],
      });
  });

  it('does not ask a Regular Bonus Call (no base bet) for a level', () => {
    const regular = {
      bonusType: 2 as const,
      spinAmount: null,
      baseBetAmountMinor: null,
      features: { regularBonusCall: true },
    };
    expect(Array.isArray(bonusDecider.decide(register(regular), bonusDecider.initialState))).toBe(true);
  });
});

describe('RegisterBonusCall: operator limits', () => {
  it('defaults: callAmount up to 1,000 × the highest level of the games, baseBet up to the highest level', () => {
    expect(effectiveLimits('EUR', terms, [{ gameId: 101, betLevelsMinor: LEVELS_101 }])).toMatchObject({
      maxCallAmountMinor: 1_000 * DEFAULT_MAX_CALL_IN_TOP_BETS,
      maxBaseBetAmountMinor: 1_000,
    });
    spec
      .given([])
      .when(register({ callAmountMinor: 1_000_000 }))
      .then([registered({ callAmountMinor: 1_000_000 })]);
    spec
      .given([])
      .when(register({ callAmountMinor: 1_000_001 }))
      .thenFails({
        code: 'CALL_AMOUNT_LIMIT_EXCEEDED',
        message: "callAmount 10000.01 EUR is above the operator's maxCallAmount of 10000 EUR",
        details: [
          { path: 'callAmount', message: 'at most 10000 EUR (default: 1000 × the highest bet level of the games)' },
        ],
      });
  });

  it('a configured limit of the bonus currency wins over the default, for both amounts', () => {
    const limited = { currencies: ['EUR'], limits: { EUR: { maxCallAmount: 100, maxBaseBetAmount: 1 } } };
    spec
      .given([])
      .when(register({ terms: limited, callAmountMinor: 10_000, baseBetAmountMinor: 100 }))
      .then([registered({ callAmountMinor: 10_000, baseBetAmountMinor: 100 })]);
    spec
      .given([])
      .when(register({ terms: limited, callAmountMinor: 10_001 }))
      .thenFails({
        code: 'CALL_AMOUNT_LIMIT_EXCEEDED',
        details: [{ path: 'callAmount', message: 'at most 100 EUR (limits.EUR.maxCallAmount)' }],
      });
    spec
      .given([])
      .when(register({ terms: limited, baseBetAmountMinor: 200 }))
      .thenFails({
        code: 'BASE_BET_LIMIT_EXCEEDED',
        message: "baseBetAmount 2 EUR is above the operator's maxBaseBetAmount of 1 EUR",
        details: [{ path: 'metaData.baseBetAmount', message: 'at most 1 EUR (limits.EUR.maxBaseBetAmount)' }],
      });
  });

  it('a limit is read in the currency of the bonus: a KRW limit does not bound a EUR bonus, nor a EUR one a KRW bonus', () => {
    const eurLimit = { currencies: ['EUR', 'KRW'], limits: { EUR: { maxCallAmount: 10 } } };
    const krw = { currency: 'KRW', catalog: krwCatalog, callAmountMinor: 500_000, baseBetAmountMinor: 200 };
    spec
      .given([])
      .when(register({ ...krw, terms: eurLimit }))
      .then([registered({ currency: 'KRW', callAmountMinor: 500_000, baseBetAmountMinor: 200 })]);
    spec
      .given([])
      .when(register({ terms: twoCurrencies, callAmountMinor: 900_000 }))
      .then([registered({ callAmountMinor: 900_000 })]);
    spec
      .given([])
      .when(register({ ...krw, terms: twoCurrencies, callAmountMinor: 500_001 }))
      .thenFails({ code: 'CALL_AMOUNT_LIMIT_EXCEEDED' });
  });
});

describe('effectiveLimits and limitRefusal: where a limit comes from', () => {
  const games = [{ gameId: 101, betLevelsMinor: LEVELS_101 }];

  it('without configured limits both come from the highest bet level of the games, and say so', () => {
    expect(effectiveLimits('EUR', terms, games)).toEqual({
      maxCallAmountMinor: 1_000_000,
      maxBaseBetAmountMinor: 1_000,
      callSource: 'default: 1000 × the highest bet level of the games',
      baseBetSource: 'default: the highest bet level of the games',
    });
  });

  it('configured limits name the key they come from', () => {
    const limited = { currencies: ['EUR'], limits: { EUR: { maxCallAmount: 100, maxBaseBetAmount: 1 } } };
    expect(effectiveLimits('EUR', limited, games)).toEqual({
      maxCallAmountMinor: 10_000,
      maxBaseBetAmountMinor: 100,
      callSource: 'limits.EUR.maxCallAmount',
      baseBetSource: 'limits.EUR.maxBaseBetAmount',
    });
  });

  it('a base bet above the default limit is refused naming the default: the highest bet level', () => {
    expect(
      limitRefusal({ callAmountMinor: 5_000, baseBetAmountMinor: 1_001, currency: 'EUR' }, terms, games),
    ).toMatchObject({
      code: 'BASE_BET_LIMIT_EXCEEDED',
      message: "baseBetAmount 10.01 EUR is above the operator's maxBaseBetAmount of 10 EUR",
      details: [
        { path: 'metaData.baseBetAmount', message: 'at most 10 EUR (default: the highest bet level of the games)' },
      ],
    });
  });

  it.each([
    [
      'maxCallAmount',
      { maxCallAmount: 0.001 },
      'limits.EUR.maxCallAmount 0.001: amount 0.001 has more than 2 decimal place(s) allowed for EUR',
    ],
    [
      'maxBaseBetAmount',
      { maxBaseBetAmount: 1.005 },
      'limits.EUR.maxBaseBetAmount 1.005: amount 1.005 has more than 2 decimal place(s) allowed for EUR',
    ],
  ])('a configured %s finer than the currency allows is a fault naming the key and value', (_key, limit, fault) => {
    const configured = { currencies: ['EUR'], limits: { EUR: limit } };
    expect(() => effectiveLimits('EUR', configured, games)).toThrow(new Error(fault));
  });
});

describe('RegisterBonusCall: currency (D6 amended)', () => {
  it('stores the currency of the registration in BonusCallRegistered', () => {
    spec
      .given([])
      .when(
        register({
          terms: twoCurrencies,
          currency: 'KRW',
          catalog: krwCatalog,
          callAmountMinor: 50_000,
          baseBetAmountMinor: 200,
        }),
      )
      .then([registered({ currency: 'KRW', callAmountMinor: 50_000, baseBetAmountMinor: 200 })]);
  });

  it('refuses a currency the operator does not allow with CURRENCY_NOT_ALLOWED, before any other rule', () => {
    spec
      .given([])
      .when(register({ currency: 'USD', baseBetAmountMinor: 30 }))
      .thenFails({ code: 'CURRENCY_NOT_ALLOWED', details: [{ path: 'currency', message: 'must be one of EUR' }] });
  });

  it('a refused currency names the allowed ones, all of them, and the one asked for', () => {
    spec
      .given([])
      .when(register({ terms: twoCurrencies, currency: 'USD' }))
      .thenFails({
        code: 'CURRENCY_NOT_ALLOWED',
        message: 'bonus calls of this operator are in EUR, KRW, not USD',
        details: [{ path: 'currency', message: 'must be one of EUR, KRW' }],
      });
  });

  it('a currency in which the games have no bet level cannot carry a Free Spin Bonus', () => {
    const none = { ...catalog, games: catalog.games.map((game) => ({ ...game, betLevelsMinor: [] })) };
    spec
      .given([])
      .when(
        register({
          terms: { currencies: ['EUR', 'ISK'], limits: {} },
          currency: 'ISK',
          catalog: none,
          baseBetAmountMinor: 20,
        }),
      )
      .thenFails({
        code: 'BET_LEVEL_NOT_AVAILABLE',
        details: [
          { path: 'metaData.baseBetAmount', message: 'game 101 offers none ISK' },
          { path: 'metaData.baseBetAmount', message: 'game 102 offers none ISK' },
          { path: 'metaData.baseBetAmount', message: 'levels every game of the bonus offers: none ISK' },
        ],
      });
  });
});
