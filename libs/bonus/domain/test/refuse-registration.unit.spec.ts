import { describe, expect, it } from '@jest/globals';
import {
  MAX_SPIN_AMOUNT,
  MIN_SPIN_AMOUNT,
  refusal,
  registerBonusCallRequest,
  validationDetails,
} from '@reelstream/contracts';
import { bonusDecider, initialState, refuseRegistration } from '../src/index.js';
import { register, T0 } from './fixtures.js';

/** The API body whose spinAmount is `spins`, as the operator would send it. */
function apiBody(spins: number): Record<string, unknown> {
  return {
    platformId: 'promo-1',
    providerId: 1,
    gameId: [101, 102],
    playerId: 'player_1',
    bonusType: 1,
    callAmount: 50,
    expireAt: '2026-06-30 23:59:59',
    metaData: { spinAmount: spins, baseBetAmount: 0.2 },
  };
}

describe('refuseRegistration: the rules of a registration, decided once', () => {
  it.each([MIN_SPIN_AMOUNT - 1, MAX_SPIN_AMOUNT + 1, 2.5])(
    'refuses spinAmount %d with the very detail the API schema gives (one definition of 1–100)',
    (spins) => {
      const parsed = registerBonusCallRequest.safeParse(apiBody(spins));
      expect(parsed.success).toBe(false);
      const refused = refuseRegistration(register({ spinAmount: spins }).data, register().data, T0);
      expect(refused).toEqual(
        refusal('VALIDATION_FAILED', undefined, { details: parsed.error ? validationDetails(parsed.error) : [] }),
      );
    },
  );

  it.each([MIN_SPIN_AMOUNT, MAX_SPIN_AMOUNT])('accepts spinAmount %d, as the schema does', (spins) => {
    expect(registerBonusCallRequest.safeParse(apiBody(spins)).success).toBe(true);
    expect(refuseRegistration(register({ spinAmount: spins }).data, register().data, T0)).toBeUndefined();
  });

  it.each([
    ['an unknown game', { gameIds: [101, 999] }],
    ['bonusType 2 without the feature', { bonusType: 2 as const }],
    ['a currency the operator does not use', { currency: 'USD' }],
    ['an expiry at the command time', { expireAt: T0 }],
    ['a base bet that is no bet level', { baseBetAmountMinor: 30 }],
  ])('is what the decider answers for %s', (_rule, change) => {
    const command = register(change);
    const refused = refuseRegistration(command.data, command.data, command.metadata.now);
    expect(refused?.type).toBe('Refusal');
    expect(bonusDecider.decide(command, initialState())).toEqual(refused);
  });

  it('names every unknown game, each under its own path', () => {
    const command = register({ gameIds: [998, 101, 999] });
    expect(refuseRegistration(command.data, command.data, T0)?.details).toEqual([
      { path: 'gameId[0]', message: 'no game 998; see GET /v1/games' },
      { path: 'gameId[2]', message: 'no game 999; see GET /v1/games' },
    ]);
  });
});

/** What refuseRegistration answers for the fixture's registration changed by `change`, judged at `now`. */
function refusedFor(change: Parameters<typeof register>[0], now = T0) {
  const command = register(change);
  return refuseRegistration(command.data, command.data, now);
}

/** A catalog whose only game 106 of provider 1 offers free spins but cannot deliver a Regular Bonus Call. */
const freeSpinsOnly = {
  providerExists: true,
  games: [
    { gameId: 106, providerId: 1, supportsFreeSpins: true, supportsRegularBonusCall: false, betLevelsMinor: [20] },
  ],
};

describe('refuseRegistration: each refusal names what it refuses', () => {
  it('bonusType 2 without the feature: the message and the detail say it is not enabled for this operator', () => {
    expect(refusedFor({ bonusType: 2 })).toEqual({
      type: 'Refusal',
      code: 'BONUS_TYPE_UNAVAILABLE',
      message:
        'Regular Bonus Call (bonusType 2) is not available for this operator; only Free Spin Bonus (1) can be used.',
      details: [{ path: 'bonusType', message: 'bonusType 2 is not enabled for this operator' }],
      retriable: false,
    });
  });

  it.each([
    ['a callAmount of 0', { callAmountMinor: 0 }, 'callAmount', 'callAmount must be a positive amount'],
    [
      'a baseBetAmount of 0',
      { baseBetAmountMinor: 0 },
      'metaData.baseBetAmount',
      'metaData.baseBetAmount must be a positive amount',
    ],
    ['no game', { gameIds: [] }, 'gameId', 'gameId must name at least one game, each once'],
    ['a game named twice', { gameIds: [101, 101] }, 'gameId', 'gameId must name at least one game, each once'],
  ])('%s is VALIDATION_FAILED under its path, saying what is expected', (_case, change, path, message) => {
    expect(refusedFor(change)).toEqual({
      type: 'Refusal',
      code: 'VALIDATION_FAILED',
      message: 'The request is not valid.',
      details: [{ path, message }],
      retriable: false,
    });
  });

  it('an unknown provider is PROVIDER_NOT_FOUND, naming the provider and where to look', () => {
    expect(refusedFor({ catalog: { ...register().data.catalog, providerExists: false } })).toEqual({
      type: 'Refusal',
      code: 'PROVIDER_NOT_FOUND',
      message: 'The game provider does not exist.',
      details: [{ path: 'providerId', message: 'no provider 1; see GET /v1/providers' }],
      retriable: false,
    });
  });

  it('the only game of a bonus is named under the path gameId, without an index', () => {
    expect(refusedFor({ gameIds: [999] })?.details).toEqual([
      { path: 'gameId', message: 'no game 999; see GET /v1/games' },
    ]);
  });

  it('a game of another provider is GAME_NOT_OF_PROVIDER, naming the game and both providers', () => {
    expect(refusedFor({ gameIds: [101, 201] })).toEqual({
      type: 'Refusal',
      code: 'GAME_NOT_OF_PROVIDER',
      message: 'A Free Spin Bonus is limited to the games of one provider; a game does not belong to providerId.',
      details: [{ path: 'gameId[1]', message: 'game 201 belongs to provider 2, not 1' }],
      retriable: false,
    });
  });

  it('a game without free spins is FREE_SPINS_NOT_SUPPORTED, naming the game', () => {
    expect(refusedFor({ gameIds: [101, 103] })).toEqual({
      type: 'Refusal',
      code: 'FREE_SPINS_NOT_SUPPORTED',
      message: 'The game does not support free spins.',
      details: [{ path: 'gameId[1]', message: 'game 103 does not support free spins' }],
      retriable: false,
    });
  });

  it('a Free Spin Bonus does not ask its games to deliver a Regular Bonus Call', () => {
    expect(refusedFor({ gameIds: [106], catalog: freeSpinsOnly })).toBeUndefined();
  });

  it('a Regular Bonus Call ignores a base bet it was sent: it need not be a bet level', () => {
    const regular = { bonusType: 2 as const, spinAmount: null, features: { regularBonusCall: true } };
    expect(refusedFor({ ...regular, baseBetAmountMinor: 30 })).toBeUndefined();
  });

  it('an expireAt that is not after now is EXPIRE_AT_IN_PAST, naming both instants', () => {
    const now = '2026-05-08T10:00:00.001Z';
    expect(refusedFor({}, now)).toEqual({
      type: 'Refusal',
      code: 'EXPIRE_AT_IN_PAST',
      message: 'expireAt must be in the future.',
      details: [{ path: 'expireAt', message: `2026-05-08T10:00:00.000Z is not after now (${now})` }],
      retriable: false,
    });
  });
});
