import { describe, it } from '@jest/globals';
import { deciderSpecification } from '@reelstream/testing';
import { bonusDecider } from '../src/index.js';
import {
  at,
  catalog,
  EXPIRE_AT,
  ISSUE,
  playedSpins,
  register,
  registered,
  regularRegistered,
  settled,
  started,
} from './fixtures.js';

const spec = deciderSpecification(bonusDecider);

describe('RegisterBonusCall', () => {
  it('registers a Free Spin Bonus, stamped with the time from the command metadata', () => {
    spec.given([]).when(register()).then([registered()]);
  });

  it('only one active bonus call per player: a second registration is refused with ACTIVE_BONUS_EXISTS, naming the player and the active one', () => {
    spec
      .given([registered()])
      .when(register({ issueId: ISSUE + 1, platformId: 'promo-2' }))
      .thenFails({
        code: 'ACTIVE_BONUS_EXISTS',
        message: `player player_1 already has the active bonus call ${ISSUE}; only one may run at a time`,
      });
  });

  it('a new bonus call may be registered once the previous one is completed, canceled or expired', () => {
    const next = register({ issueId: ISSUE + 1, platformId: 'promo-2' }, at(5_000));
    const expected = [registered({ issueId: ISSUE + 1, platformId: 'promo-2', registeredAt: at(5_000) })];
    spec
      .given([
        registered(),
        started(1, 1),
        settled(1, 1, { rawWinMinor: 9_000, winMinor: 5_000, totalWinMinor: 5_000, spinsLeft: 9 }),
        {
          type: 'BonusCallCompleted',
          data: { issueId: ISSUE, reason: 'win_cap_reached', totalWinMinor: 5_000, completedAt: at(2_000) },
        },
      ])
      .when(next)
      .then(expected);
    spec
      .given([
        registered(),
        {
          type: 'BonusCallCanceled',
          data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, canceledAt: at(1_000) },
        },
      ])
      .when(next)
      .then(expected);
    spec
      .given([
        registered(),
        {
          type: 'BonusCallExpired',
          data: { issueId: ISSUE, spinsForfeited: 10, totalWinMinor: 0, expiredAt: at(1_000) },
        },
      ])
      .when(next)
      .then(expected);
  });

  it('an active bonus call past its expireAt is recorded expired first, so it cannot block the next registration', () => {
    const later = '2026-05-09T00:00:00.000Z';
    spec
      .given([registered(), ...playedSpins(2)])
      .when(register({ issueId: ISSUE + 1, platformId: 'promo-2', expireAt: '2026-05-20T00:00:00.000Z' }, later))
      .then([
        { type: 'BonusCallExpired', data: { issueId: ISSUE, spinsForfeited: 8, totalWinMinor: 0, expiredAt: later } },
        registered({
          issueId: ISSUE + 1,
          platformId: 'promo-2',
          expireAt: '2026-05-20T00:00:00.000Z',
          registeredAt: later,
        }),
      ]);
  });

  it('a resend of a registration already in the stream (same issueId) changes nothing', () => {
    spec.given([registered()]).when(register()).thenNothing();
  });

  it('single provider: a game of another provider is refused with GAME_NOT_OF_PROVIDER', () => {
    spec
      .given([])
      .when(register({ gameIds: [101, 201] }))
      .thenFails({ code: 'GAME_NOT_OF_PROVIDER' });
  });

  it('all games must support free spins: otherwise FREE_SPINS_NOT_SUPPORTED', () => {
    spec
      .given([])
      .when(register({ gameIds: [101, 103] }))
      .thenFails({ code: 'FREE_SPINS_NOT_SUPPORTED' });
  });

  it('an unknown provider is PROVIDER_NOT_FOUND and an unknown game GAME_NOT_FOUND', () => {
    spec
      .given([])
      .when(register({ catalog: { ...catalog, providerExists: false } }))
      .thenFails({ code: 'PROVIDER_NOT_FOUND' });
    spec
      .given([])
      .when(register({ gameIds: [101, 999] }))
      .thenFails({ code: 'GAME_NOT_FOUND' });
  });

  it('spinAmount is 1 to 100: both bounds are accepted, anything else is VALIDATION_FAILED', () => {
    spec
      .given([])
      .when(register({ spinAmount: 1 }))
      .then([registered({ spinAmount: 1 })]);
    spec
      .given([])
      .when(register({ spinAmount: 100 }))
      .then([registered({ spinAmount: 100 })]);
    for (const spinAmount of [0, 101, 1.5, -1, null])
      spec.given([]).when(register({ spinAmount })).thenFails({ code: 'VALIDATION_FAILED' });
  });

  it('a Free Spin Bonus needs a positive baseBetAmount and every bonus a positive callAmount', () => {
    spec
      .given([])
      .when(register({ baseBetAmountMinor: null }))
      .thenFails({ code: 'VALIDATION_FAILED' });
    spec
      .given([])
      .when(register({ baseBetAmountMinor: 0 }))
      .thenFails({ code: 'VALIDATION_FAILED' });
    spec
      .given([])
      .when(register({ callAmountMinor: 0 }))
      .thenFails({ code: 'VALIDATION_FAILED' });
  });

  it('games are listed once each and at least one is given', () => {
    spec
      .given([])
      .when(register({ gameIds: [101, 101] }))
      .thenFails({ code: 'VALIDATION_FAILED' });
    spec
      .given([])
      .when(register({ gameIds: [] }))
      .thenFails({ code: 'VALIDATION_FAILED' });
  });

  it('expireAt must be in the future at the command time: now or earlier is EXPIRE_AT_IN_PAST', () => {
    spec.given([]).when(register({}, EXPIRE_AT)).thenFails({ code: 'EXPIRE_AT_IN_PAST' });
    spec.given([]).when(register({}, '2026-05-08T10:00:00.001Z')).thenFails({ code: 'EXPIRE_AT_IN_PAST' });
    spec
      .given([])
      .when(register({}, '2026-05-08T09:59:59.999Z'))
      .then([registered({ registeredAt: '2026-05-08T09:59:59.999Z' })]);
  });

  it('D3: bonusType 2 is BONUS_TYPE_UNAVAILABLE unless the operator feature regularBonusCall is on', () => {
    spec
      .given([])
      .when(register({ bonusType: 2 }))
      .thenFails({ code: 'BONUS_TYPE_UNAVAILABLE' });
  });

  it('D3: with the feature on, a Regular Bonus Call registers without spin fields, on any game of the provider', () => {
    spec
      .given([])
      .when(
        register({
          bonusType: 2,
          spinAmount: null,
          baseBetAmountMinor: null,
          gameIds: [101, 103],
          features: { regularBonusCall: true },
        }),
      )
      .then([regularRegistered({ gameIds: [101, 103] })]);
  });

  it('a Regular Bonus Call naming a game that cannot deliver one (an instant game) is REGULAR_BONUS_NOT_SUPPORTED, each such game named', () => {
    const regular = { bonusType: 2 as const, spinAmount: null, baseBetAmountMinor: null };
    spec
      .given([])
      .when(register({ ...regular, gameIds: [101, 105], features: { regularBonusCall: true } }))
      .thenFails({
        code: 'REGULAR_BONUS_NOT_SUPPORTED',
        details: [{ path: 'gameId[1]', message: 'game 105 cannot deliver a Regular Bonus Call; see GET /v1/games' }],
      });
    spec
      .given([])
      .when(register({ ...regular, gameIds: [105], features: { regularBonusCall: true } }))
      .thenFails({ code: 'REGULAR_BONUS_NOT_SUPPORTED' });
  });
});
