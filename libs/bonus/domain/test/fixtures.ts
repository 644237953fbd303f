/** Builders for decider tests: one valid command or event each, overridable field by field. */
import type { BonusCallRegistered, FreeSpinSettled, FreeSpinStarted, PlayerBonusEvent } from '@reelstream/contracts';
import type { CatalogFacts, OperatorTerms, RegisterBonusCall, SettleFreeSpin, StartFreeSpin } from '../src/index.js';

export const T0 = '2026-05-01T10:00:00.000Z';
export const EXPIRE_AT = '2026-05-08T10:00:00.000Z';
export const ISSUE = 9_000_001;
const PROVIDER = 1;
const GAMES = [101, 102] as const;

/** ISO instant `ms` milliseconds after T0. */
export function at(ms: number): string {
  return new Date(Date.parse(T0) + ms).toISOString();
}

/** EUR bet levels in minor units, as the catalog's default lists give them. */
export const LEVELS_101 = [20, 40, 100, 200, 400, 1_000];
const LEVELS_103 = [25, 50, 100, 250, 500, 1_000];

export const catalog: CatalogFacts = {
  providerExists: true,
  games: [
    {
      gameId: 101,
      providerId: PROVIDER,
      supportsFreeSpins: true,
      supportsRegularBonusCall: true,
      betLevelsMinor: LEVELS_101,
    },
    {
      gameId: 102,
      providerId: PROVIDER,
      supportsFreeSpins: true,
      supportsRegularBonusCall: true,
      betLevelsMinor: LEVELS_101,
    },
    {
      gameId: 103,
      providerId: PROVIDER,
      supportsFreeSpins: false,
      supportsRegularBonusCall: true,
      betLevelsMinor: LEVELS_103,
    },
    {
      gameId: 104,
      providerId: PROVIDER,
      supportsFreeSpins: true,
      supportsRegularBonusCall: true,
      betLevelsMinor: LEVELS_103,
    },
    // As an instant game: neither free spins nor steered paid spins.
    {
      gameId: 105,
      providerId: PROVIDER,
      supportsFreeSpins: false,
      supportsRegularBonusCall: false,
      betLevelsMinor: LEVELS_101,
    },
    { gameId: 201, providerId: 2, supportsFreeSpins: true, supportsRegularBonusCall: true, betLevelsMinor: LEVELS_101 },
  ],
};

/** The demo operator's terms: EUR only, no configured limits (the catalog-derived defaults apply). */
export const terms: OperatorTerms = { currencies: ['EUR'], limits: {} };

/** The bonus call both carry: player_1's 10 spins of 0.20 EUR, up to 50.00 EUR, on the provider's games. */
const bonusCall = () => ({
  issueId: ISSUE,
  platformId: 'promo-1',
  operatorId: 'demo',
  playerId: 'player_1',
  providerId: PROVIDER,
  gameIds: [...GAMES],
  bonusType: 1 as const,
  currency: 'EUR',
  callAmountMinor: 5_000,
  spinAmount: 10,
  baseBetAmountMinor: 20,
  expireAt: EXPIRE_AT,
});

export function register(data: Partial<RegisterBonusCall['data']> = {}, now = T0): RegisterBonusCall {
  return {
    type: 'RegisterBonusCall',
    data: {
      ...bonusCall(),
      catalog,
      features: { regularBonusCall: false },
      terms,
      ...data,
    },
    metadata: { now },
  };
}

/** The event a successful `register(data)` produces. */
export function registered(data: Partial<BonusCallRegistered['data']> = {}): BonusCallRegistered {
  return {
    type: 'BonusCallRegistered',
    data: {
      ...bonusCall(),
      registeredAt: T0,
      ...data,
    },
  };
}

export function regularRegistered(data: Partial<BonusCallRegistered['data']> = {}): BonusCallRegistered {
  return registered({ bonusType: 2, spinAmount: null, baseBetAmountMinor: null, ...data });
}

export function start(roundId: number, data: Partial<StartFreeSpin['data']> = {}, now = at(1_000)): StartFreeSpin {
  return { type: 'StartFreeSpin', data: { issueId: ISSUE, gameId: 101, roundId, ...data }, metadata: { now } };
}

export function settle(
  roundId: number,
  rawWinMinor: number,
  data: Partial<SettleFreeSpin['data']> = {},
  now = at(2_000),
): SettleFreeSpin {
  return {
    type: 'SettleFreeSpin',
    data: { issueId: ISSUE, roundId, rawWinMinor, transactionId: 70_000 + roundId, ...data },
    metadata: { now },
  };
}

export function started(
  roundId: number,
  spinNumber: number,
  data: Partial<FreeSpinStarted['data']> = {},
): FreeSpinStarted {
  return {
    type: 'FreeSpinStarted',
    data: {
      issueId: ISSUE,
      roundId,
      gameId: 101,
      spinNumber,
      baseBetAmountMinor: 20,
      winCapLeftMinor: 5_000,
      startedAt: at(1_000),
      ...data,
    },
  };
}

export function settled(
  roundId: number,
  spinNumber: number,
  data: Partial<FreeSpinSettled['data']> = {},
): FreeSpinSettled {
  return {
    type: 'FreeSpinSettled',
    data: {
      issueId: ISSUE,
      roundId,
      gameId: 101,
      spinNumber,
      rawWinMinor: 0,
      winMinor: 0,
      totalWinMinor: 0,
      spinsLeft: 10 - spinNumber,
      settledAt: at(2_000),
      transactionId: 70_000 + roundId,
      ...data,
    },
  };
}

/** Spins 1…n started and settled without a win, as a stream would hold them. */
export function playedSpins(n: number): PlayerBonusEvent[] {
  return Array.from({ length: n }, (_, i) => [started(i + 1, i + 1), settled(i + 1, i + 1)]).flat();
}
