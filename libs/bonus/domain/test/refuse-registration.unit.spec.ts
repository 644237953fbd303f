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
