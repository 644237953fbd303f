import { describe, expect, it } from '@jest/globals';
import {
  parseOperatorsConfig,
  registerBonusCallData,
  registerBonusCallRequest,
  type OperatorConfig,
  type OperatorConfigInput,
  RefusedError,
} from '@reelstream/contracts';
import { CatalogView } from '../catalog/catalog-view.js';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { toRegisterCommandData } from './register-command.js';

const catalog = new CatalogView(loadCatalogFile());
const NOW = new Date('2026-05-01T00:00:00.000Z');

function operator(overrides: Partial<OperatorConfigInput> = {}): OperatorConfig {
  const [parsed] = parseOperatorsConfig([
    {
      id: 'op',
      name: 'Op',
      apiToken: 'token-0123456789abcdef',
      callbackUrl: 'https://op.example/wallet',
      signingSecret: 'secret-0123456789abcdef',
      currency: 'EUR',
      ...overrides,
    },
  ]);
  return parsed as OperatorConfig;
}

const body = {
  platformId: 'p-1',
  providerId: 1,
  gameId: [101, 102],
  playerId: 'player_1',
  bonusType: 1,
  callAmount: 50,
  expireAt: '2026-06-30 23:59:59',
  metaData: { spinAmount: 10, baseBetAmount: 0.2 },
};

function command(input: Record<string, unknown>, op: OperatorConfig = operator(), now: Date = NOW) {
  return toRegisterCommandData(registerBonusCallRequest.parse(input), { operator: op, catalog, now });
}

function refusal(input: Record<string, unknown>, op: OperatorConfig = operator(), now: Date = NOW): RefusedError {
  try {
    command(input, op, now);
  } catch (error) {
    if (error instanceof RefusedError) return error;
    throw error;
  }
  throw new Error('expected the registration to be refused');
}

describe('toRegisterCommandData', () => {
  it('builds a RegisterBonusCall that the contract accepts', () => {
    const data = command(body);
    expect(registerBonusCallData.parse(data)).toEqual(data);
    expect(data).toMatchObject({
      operatorId: 'op',
      currency: 'EUR',
      callAmountMinor: 5_000,
      spinAmount: 10,
      baseBetAmountMinor: 20,
      gameIds: [101, 102],
      expireAt: '2026-06-30T23:59:59.000Z',
    });
  });

  describe('amounts in the operator currency (D6)', () => {
    it.each([
      ['EUR', 10.25, 1_025],
      ['EUR', 0.01, 1],
      ['KRW', 1_000, 1_000],
      ['JPY', 1, 1],
      ['BHD', 1.234, 1_234],
    ])('converts %s %d to %d minor units', (currency, callAmount, minor) => {
      // A Regular Bonus Call: its amount is not tied to a bet level.
      const { metaData: _ignored, ...regular } = body;
      expect(
        command({ ...regular, bonusType: 2, callAmount }, operator({ currency, features: { regularBonusCall: true } }))
          .callAmountMinor,
      ).toBe(minor);
    });

    it.each([
      ['EUR', 10.255, 'callAmount'],
      ['EUR', 0.001, 'callAmount'],
      ['KRW', 1000.5, 'callAmount'],
      ['JPY', 0.5, 'callAmount'],
      ['BHD', 1.2345, 'callAmount'],
    ])('refuses %s %d with 400 AMOUNT_PRECISION on %s', (currency, callAmount, path) => {
      const error = refusal(
        { ...body, callAmount, metaData: { spinAmount: 1, baseBetAmount: 1 } },
        operator({ currency }),
      );
      expect(error.code).toBe('AMOUNT_PRECISION');
      expect(error.status).toBe(400);
      expect(error.details?.map((detail) => detail.path)).toEqual([path]);
    });

    it('names both amounts when both have too many decimals', () => {
      const error = refusal({ ...body, callAmount: 1.005, metaData: { spinAmount: 1, baseBetAmount: 0.125 } });
      expect(error.details?.map((detail) => detail.path)).toEqual(['callAmount', 'metaData.baseBetAmount']);
    });
  });

  describe('bonus type (D3)', () => {
    it('refuses bonusType 2 with 422 BONUS_TYPE_UNAVAILABLE for an operator without the feature', () => {
      const error = refusal({ ...body, bonusType: 2, metaData: undefined });
      expect([error.code, error.status]).toEqual(['BONUS_TYPE_UNAVAILABLE', 422]);
    });

    it('accepts bonusType 2 without metaData for an operator with the feature, and sends no spins', () => {
      const { metaData: _ignored, ...regular } = body;
      const data = command({ ...regular, bonusType: 'Regular' }, operator({ features: { regularBonusCall: true } }));
      expect(data.bonusType).toBe(2);
      expect(data).not.toHaveProperty('spinAmount');
      expect(data).not.toHaveProperty('baseBetAmountMinor');
    });
  });

  describe('provider and games (D4, spec §4.1 rule 4)', () => {
    it('refuses an unknown provider with 422 PROVIDER_NOT_FOUND', () => {
      expect(refusal({ ...body, providerId: 99 }).code).toBe('PROVIDER_NOT_FOUND');
    });

    it('refuses unknown games with 422 GAME_NOT_FOUND naming each', () => {
      const error = refusal({ ...body, gameId: [101, 999, 998] });
      expect(error.code).toBe('GAME_NOT_FOUND');
      expect(error.details?.map((detail) => detail.path)).toEqual(['gameId[1]', 'gameId[2]']);
    });

    it('refuses a game of another provider with 422 GAME_NOT_OF_PROVIDER: one provider per Free Spin Bonus', () => {
      const error = refusal({ ...body, gameId: [101, 201] });
      expect(error.code).toBe('GAME_NOT_OF_PROVIDER');
      expect(error.details).toEqual([{ path: 'gameId[1]', message: 'game 201 belongs to provider 2, not 1' }]);
    });

    it('refuses a game without free spins for bonusType 1 with 422 FREE_SPINS_NOT_SUPPORTED', () => {
      const error = refusal({ ...body, providerId: 2, gameId: 203 });
      expect(error.code).toBe('FREE_SPINS_NOT_SUPPORTED');
      expect(error.details?.[0]?.path).toBe('gameId');
    });
  });

  describe("bonus terms: currency, bet levels, limits — the decider's own rules", () => {
    const twoCurrencies = operator({ currencies: ['EUR', 'KRW'], limits: { KRW: { maxCallAmount: 100_000 } } });

    it('takes the currency of the request, converts in it and reads the levels of that currency', () => {
      const data = command(
        { ...body, currency: 'KRW', callAmount: 50_000, metaData: { spinAmount: 10, baseBetAmount: 200 } },
        twoCurrencies,
      );
      expect(data).toMatchObject({ currency: 'KRW', callAmountMinor: 50_000, baseBetAmountMinor: 200 });
      expect(command(body, twoCurrencies).currency).toBe('EUR');
    });

    it('refuses a currency the operator does not allow with 422 CURRENCY_NOT_ALLOWED', () => {
      const error = refusal({ ...body, currency: 'KRW' });
      expect([error.code, error.status, error.details]).toEqual([
        'CURRENCY_NOT_ALLOWED',
        422,
        [{ path: 'currency', message: 'must be one of EUR' }],
      ]);
    });

    it('refuses a base bet that is not a level of every game with 422 BET_LEVEL_NOT_AVAILABLE, listing the levels', () => {
      const error = refusal({ ...body, gameId: [101, 103], metaData: { spinAmount: 10, baseBetAmount: 0.4 } });
      expect([error.code, error.status]).toEqual(['BET_LEVEL_NOT_AVAILABLE', 422]);
      expect(error.details).toEqual([
        { path: 'metaData.baseBetAmount', message: 'game 103 offers 0.25, 0.5, 1, 2.5, 5, 10 EUR' },
        { path: 'metaData.baseBetAmount', message: 'levels every game of the bonus offers: 1, 10 EUR' },
      ]);
      expect(refusal({ ...body, metaData: { spinAmount: 10, baseBetAmount: 0.3 } }).code).toBe(
        'BET_LEVEL_NOT_AVAILABLE',
      );
      // 0.2 is a EUR level, not a KRW one: the levels are those of the bonus currency.
      expect(
        refusal(
          { ...body, currency: 'KRW', callAmount: 1_000, metaData: { spinAmount: 10, baseBetAmount: 20 } },
          twoCurrencies,
        ).code,
      ).toBe('BET_LEVEL_NOT_AVAILABLE');
    });

    it('refuses amounts above the operator limits of the bonus currency with 422 naming the limit', () => {
      const over = refusal(
        { ...body, currency: 'KRW', callAmount: 100_001, metaData: { spinAmount: 10, baseBetAmount: 200 } },
        twoCurrencies,
      );
      expect([over.code, over.status, over.details]).toEqual([
        'CALL_AMOUNT_LIMIT_EXCEEDED',
        422,
        [{ path: 'callAmount', message: 'at most 100000 KRW (limits.KRW.maxCallAmount)' }],
      ]);
      // The default for EUR: 1,000 × the highest level (10 EUR) of the games.
      expect(command({ ...body, callAmount: 10_000 }, twoCurrencies).callAmountMinor).toBe(1_000_000);
      expect(refusal({ ...body, callAmount: 10_000.01 }, twoCurrencies).code).toBe('CALL_AMOUNT_LIMIT_EXCEEDED');
      const bet = refusal(
        { ...body, metaData: { spinAmount: 10, baseBetAmount: 2 } },
        operator({ limits: { EUR: { maxBaseBetAmount: 1 } } }),
      );
      expect([bet.code, bet.details]).toEqual([
        'BASE_BET_LIMIT_EXCEEDED',
        [{ path: 'metaData.baseBetAmount', message: 'at most 1 EUR (limits.EUR.maxBaseBetAmount)' }],
      ]);
    });
  });

  describe('expireAt (D5)', () => {
    it('reads the wall-clock time in the operator zone', () => {
      expect(command(body, operator({ timeZone: 'Asia/Seoul' })).expireAt).toBe('2026-06-30T14:59:59.000Z');
      expect(command(body, operator({ timeZone: 'America/New_York' })).expireAt).toBe('2026-07-01T03:59:59.000Z');
    });

    it('accepts one second after now and refuses now itself with 422 EXPIRE_AT_IN_PAST', () => {
      expect(command({ ...body, expireAt: '2026-05-01 00:00:01' }).expireAt).toBe('2026-05-01T00:00:01.000Z');
      const error = refusal({ ...body, expireAt: '2026-05-01 00:00:00' });
      expect([error.code, error.status]).toEqual(['EXPIRE_AT_IN_PAST', 422]);
      expect(refusal({ ...body, expireAt: '2020-01-01 00:00:00' }).code).toBe('EXPIRE_AT_IN_PAST');
    });

    it("judges the past in the operator's zone: 08:00 in Seoul is already gone at 00:00 UTC", () => {
      expect(refusal({ ...body, expireAt: '2026-05-01 08:59:59' }, operator({ timeZone: 'Asia/Seoul' })).code).toBe(
        'EXPIRE_AT_IN_PAST',
      );
      expect(command({ ...body, expireAt: '2026-05-01 09:00:01' }, operator({ timeZone: 'Asia/Seoul' })).expireAt).toBe(
        '2026-05-01T00:00:01.000Z',
      );
    });

    it('refuses a time the clocks skip with 422 EXPIRE_AT_NOT_IN_ZONE, and takes the earlier of a repeated one', () => {
      const newYork = operator({ timeZone: 'America/New_York' });
      const error = refusal({ ...body, expireAt: '2027-03-14 02:30:00' }, newYork);
      expect([error.code, error.status]).toEqual(['EXPIRE_AT_NOT_IN_ZONE', 422]);
      expect(command({ ...body, expireAt: '2026-11-01 01:30:00' }, newYork).expireAt).toBe('2026-11-01T05:30:00.000Z');
    });
  });

  it('checks in a fixed order: amounts before bonus type before games before expiry', () => {
    const everythingWrong = { ...body, callAmount: 1.001, bonusType: 2, gameId: 999, expireAt: '2020-01-01 00:00:00' };
    expect(refusal(everythingWrong).code).toBe('AMOUNT_PRECISION');
    expect(refusal({ ...everythingWrong, callAmount: 1 }).code).toBe('BONUS_TYPE_UNAVAILABLE');
    expect(refusal({ ...everythingWrong, callAmount: 1, bonusType: 1 }).code).toBe('GAME_NOT_FOUND');
    expect(refusal({ ...everythingWrong, callAmount: 1, bonusType: 1, gameId: 101 }).code).toBe('EXPIRE_AT_IN_PAST');
  });
});
