import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import {
  BetLevelError,
  betLevelsMinor,
  offeredBetLevelsMinor,
  findGame,
  findProvider,
  gamesOfProvider,
  type CatalogGame,
} from '@reelstream/contracts';
import { CatalogError, parseCatalog } from '@reelstream/game-domain';
import { AmountError } from '@reelstream/money';

const shipped: unknown = JSON.parse(
  readFileSync(new URL('../../../../../config/catalog.json', import.meta.url), 'utf8'),
);

/** The shipped catalog with one game (101 unless told) changed. */
function withGame(change: Record<string, unknown>, gameId = 101): unknown {
  const copy = structuredClone(shipped) as { games: Record<string, unknown>[] };
  copy.games = copy.games.map((game) => (game['gameId'] === gameId ? { ...game, ...change } : game));
  return copy;
}

function problemsOf(json: unknown): string[] {
  try {
    parseCatalog(json);
  } catch (error) {
    if (error instanceof CatalogError) return [...error.problems];
    throw error;
  }
  return [];
}

describe('the shipped game catalog (config/catalog.json)', () => {
  const catalog = parseCatalog(shipped);

  it('has at least two providers and five games, one of them an instant game, slots of every volatility', () => {
    expect(catalog.providers.length).toBeGreaterThanOrEqual(2);
    expect(catalog.games.length).toBeGreaterThanOrEqual(5);
    expect(catalog.games.filter((game) => game.type === 'instant')).toHaveLength(1);
    const slots = catalog.games.filter((game) => game.type === 'slot');
    expect(new Set(slots.map((game) => game.volatility))).toEqual(new Set(['low', 'medium', 'high']));
    expect(slots.filter((game) => game.supportsFreeSpins).length).toBeGreaterThanOrEqual(4);
    for (const provider of catalog.providers)
      expect(gamesOfProvider(catalog, provider.providerId).length).toBeGreaterThan(0);
  });

  it('offers every game in English, Korean, Japanese and Chinese, and streamers more than 100 %', () => {
    for (const game of catalog.games) {
      expect(game.languages).toEqual(expect.arrayContaining(['en', 'ko', 'ja', 'zh']));
      expect(game.streamerRtp).toBeGreaterThan(1);
      expect(game.rtp).toBeLessThan(1);
    }
  });

  it('finds games and providers by id', () => {
    expect(findGame(catalog, 203)).toMatchObject({ name: 'Lucky Wheel', type: 'instant', supportsFreeSpins: false });
    expect(findGame(catalog, 999)).toBeUndefined();
    expect(findProvider(catalog, 1)?.name).toBe('Aurora Reels');
    expect(findProvider(catalog, 999)).toBeUndefined();
    expect(gamesOfProvider(catalog, 1).map((game) => game.gameId)).toEqual([101, 102, 103]);
    expect(gamesOfProvider(catalog, 999)).toEqual([]);
  });
});

describe('bet levels in minor units', () => {
  const catalog = parseCatalog(shipped);
  const lotus = findGame(catalog, 101) as CatalogGame;

  it('scales the default levels by the currency exponent', () => {
    expect(betLevelsMinor(lotus, 'EUR')).toEqual([20, 40, 100, 200, 400, 1000]);
    expect(betLevelsMinor(lotus, 'KWD')).toEqual([200, 400, 1000, 2000, 4000, 10000]);
  });

  it('uses the per-currency list of zero-decimal currencies', () => {
    expect(betLevelsMinor(lotus, 'KRW')).toEqual([200, 400, 1000, 2000, 4000, 10000]);
    expect(betLevelsMinor(lotus, 'JPY')).toEqual([20, 40, 100, 200, 400, 1000]);
  });

  it('refuses a level the currency cannot express instead of rounding it', () => {
    expect(() => betLevelsMinor(lotus, 'VND')).toThrow(BetLevelError); // 0.2 VND: VND has no decimals
    expect(() => betLevelsMinor(lotus, 'XYZ')).toThrow(/unknown ISO 4217 currency/);
  });

  it('names the game, currency and level it cannot express, with the money error as the cause', () => {
    let thrown: unknown;
    try {
      betLevelsMinor(lotus, 'VND');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(BetLevelError);
    expect(thrown).toMatchObject({
      name: 'BetLevelError',
      message:
        'bet level 0.2 of game 101 cannot be expressed in VND (0 decimals): amount 0.2 has more than 0 decimal place(s) allowed for VND',
      gameId: 101,
      currency: 'VND',
      level: 0.2,
    });
    expect((thrown as BetLevelError).cause).toBeInstanceOf(AmountError);
    expect((thrown as BetLevelError).cause).toMatchObject({
      code: 'AMOUNT_PRECISION',
      message: 'amount 0.2 has more than 0 decimal place(s) allowed for VND',
    });
  });

  it('has no levels for a game without a list for the currency or a default one', () => {
    const unlisted: CatalogGame = { ...lotus, betLevels: { KRW: [200] } };
    expect(betLevelsMinor(unlisted, 'EUR')).toEqual([]);
    expect(offeredBetLevelsMinor(unlisted, 'EUR')).toEqual([]);
    expect(offeredBetLevelsMinor(unlisted, 'KRW')).toEqual([200]);
  });

  it('offers, per currency, the levels it can express (what the API lists, paid spins and registrations accept)', () => {
    expect(offeredBetLevelsMinor(lotus, 'EUR')).toEqual([20, 40, 100, 200, 400, 1000]);
    expect(offeredBetLevelsMinor(lotus, 'KRW')).toEqual([200, 400, 1000, 2000, 4000, 10000]);
    // VND has no decimals and no list of its own: of 0.2, 0.4, 1, 2, 4, 10 only the whole ones remain.
    expect(offeredBetLevelsMinor(lotus, 'VND')).toEqual([1, 2, 4, 10]);
  });

  it('never offers a bet of nothing, even from a game not checked by parseCatalog', () => {
    expect(offeredBetLevelsMinor({ ...lotus, betLevels: { default: [0, 0.2] } }, 'EUR')).toEqual([20]);
  });
});

describe('catalog validation', () => {
  it('accepts the shipped catalog', () => {
    expect(problemsOf(shipped)).toEqual([]);
  });

  it('throws a CatalogError, not retriable, listing every problem', () => {
    let thrown: unknown;
    try {
      parseCatalog(withGame({ rtp: 0.97, streamerRtp: 1.1 }));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CatalogError);
    expect(thrown).toMatchObject({
      name: 'CatalogError',
      code: 'CONFIGURATION_INVALID',
      retriable: false,
      message:
        'invalid game catalog:\n' +
        '- game 101: rtp 0.97 but model lotus-garden is tuned to 0.96\n' +
        '- game 101: streamerRtp 1.1 but model lotus-garden is tuned to 1.05',
    });
  });

  it('rejects a repeated gameId or providerId and a game of an unknown provider', () => {
    expect(problemsOf(withGame({ gameId: 102 }))).toEqual(['gameId 102 appears more than once']);
    const twice = structuredClone(shipped) as { providers: unknown[] };
    twice.providers.push({ providerId: 1, name: 'Again' });
    expect(problemsOf(twice)).toEqual(['providerId 1 appears more than once']);
    expect(problemsOf(withGame({ providerId: 7 }))).toEqual(['game 101: unknown providerId 7']);
  });

  it('rejects an unknown model, a model of the other game type and an instant game with free spins', () => {
    expect(problemsOf(withGame({ model: 'no-such-model' }))).toEqual(['game 101: unknown model "no-such-model"']);
    expect(
      problemsOf(withGame({ type: 'instant', supportsFreeSpins: false, supportsRegularBonusCall: false })),
    ).toEqual(['game 101: model lotus-garden plays slot games, not instant']);
    expect(problemsOf(withGame({ supportsFreeSpins: true }, 203))).toEqual([
      'game 203: an instant game cannot support free spins',
    ]);
  });

  it('says per game whether it can deliver a Regular Bonus Call, and rejects an instant game that claims it', () => {
    const shippedGames = parseCatalog(shipped).games;
    expect(shippedGames.map((game) => [game.gameId, game.supportsRegularBonusCall])).toEqual(
      shippedGames.map((game) => [game.gameId, game.type === 'slot']),
    );
    expect(problemsOf(withGame({ supportsRegularBonusCall: true }, 203))).toEqual([
      'game 203: an instant game cannot deliver a Regular Bonus Call (its outcome is drawn before the bet)',
    ]);
    expect(problemsOf(withGame({ supportsRegularBonusCall: undefined }))).toEqual([
      'games.0.supportsRegularBonusCall: Invalid input: expected boolean, received undefined',
    ]);
  });

  it('rejects advertised RTPs the model is not tuned to, and a streamer RTP of 100 % or less', () => {
    expect(problemsOf(withGame({ rtp: 0.97 }))).toEqual(['game 101: rtp 0.97 but model lotus-garden is tuned to 0.96']);
    expect(problemsOf(withGame({ streamerRtp: 1.1 }))).toEqual([
      'game 101: streamerRtp 1.1 but model lotus-garden is tuned to 1.05',
    ]);
    expect(problemsOf(withGame({ streamerRtp: 1 }))).toEqual([
      'games.0.streamerRtp: Too small: expected number to be >1',
    ]);
  });

  it('rejects bet levels that would round wins, are not ascending, or cannot be expressed in their currency', () => {
    // Lotus Garden pays in 1/20ths of the bet: 0.30 EUR = 30 cents does not divide into 20 coins
    expect(problemsOf(withGame({ betLevels: { default: [0.2, 0.3] } }))).toEqual([
      'game 101: bet level 0.3 (default) is not a multiple of 20 minor units, so some wins would be rounded',
    ]);
    // Checked in the currency's own minor units: 210 KRW is 210 won, not a multiple of 20.
    expect(problemsOf(withGame({ betLevels: { default: [0.2], KRW: [200, 210] } }))).toEqual([
      'game 101: bet level 210 (KRW) is not a multiple of 20 minor units, so some wins would be rounded',
    ]);
    expect(problemsOf(withGame({ betLevels: { default: [0.4, 0.2] } }))).toEqual([
      'games.0.betLevels.default: bet levels must be strictly ascending',
    ]);
    expect(problemsOf(withGame({ betLevels: { default: [0.2, 0.2, 0.4] } }))).toEqual([
      'games.0.betLevels.default: bet levels must be strictly ascending',
    ]);
    // The first level has no predecessor: a level of 0 is refused as such, and the order is right.
    expect(problemsOf(withGame({ betLevels: { default: [0, 0.2] } }))).toEqual([
      'games.0.betLevels.default.0: Too small: expected number to be >0',
    ]);
    expect(problemsOf(withGame({ betLevels: { default: [0.2], KRW: [200.5] } }))).toEqual([
      'games.0.betLevels.KRW: bet level 200.5 cannot be expressed in KRW',
    ]);
    expect(problemsOf(withGame({ betLevels: { default: [0.2], XYZ: [1] } }))).toEqual([
      'games.0.betLevels.XYZ: XYZ is not an ISO 4217 currency code',
    ]);
    expect(problemsOf(withGame({ betLevels: { KRW: [200] } }))).toEqual([
      'games.0.betLevels: bet levels need a "default" list',
    ]);
  });

  it('rejects unknown fields, missing fields and malformed values', () => {
    expect(problemsOf(withGame({ colour: 'red' }))).toEqual([expect.stringContaining('colour')]);
    expect(problemsOf(withGame({ gameId: -1 }))).toEqual([expect.stringMatching(/^games\.0\.gameId/)]);
    expect(problemsOf(withGame({ languages: ['english'] }))).toEqual([
      'games.0.languages.0: language must be an ISO 639-1 code',
    ]);
    expect(problemsOf(withGame({ volatility: 'extreme' }))).toEqual([expect.stringMatching(/^games\.0\.volatility/)]);
    expect(problemsOf({ providers: [], games: [] })).toHaveLength(2);
    expect(problemsOf(null)).toEqual([expect.stringMatching(/^\(root\)/)]);
  });
});
