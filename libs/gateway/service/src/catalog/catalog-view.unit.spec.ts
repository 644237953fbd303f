import { describe, expect, it } from '@jest/globals';
import { listGamesResponse, listProvidersResponse, ok, type Catalog } from '@reelstream/contracts';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { betLevelsIn, CatalogView } from './catalog-view.js';

const catalog = loadCatalogFile();
const view = new CatalogView(catalog);

describe('CatalogView', () => {
  it('lists the providers in the API shape', () => {
    expect(listProvidersResponse.parse(ok(view.providers())).data).toEqual(
      catalog.providers.map(({ providerId, name }) => ({ providerId, name })),
    );
  });

  it('shows RTP in percent without binary noise and bet levels in the caller currency', () => {
    const games = view.games('EUR');
    expect(listGamesResponse.parse(ok(games)).data).toHaveLength(catalog.games.length);
    const dragonPearl = games.find((game) => game.gameId === 102);
    expect(dragonPearl?.rtp).toBe(96.5);
    expect(dragonPearl?.betLevels).toEqual([0.2, 0.4, 1, 2, 4, 10]);
    expect(view.games('KRW').find((game) => game.gameId === 102)?.betLevels).toEqual([
      200, 400, 1000, 2000, 4000, 10000,
    ]);
  });

  it('filters by provider, and an unknown provider has no games', () => {
    expect(view.games('EUR', 2).every((game) => game.providerId === 2)).toBe(true);
    expect(view.games('EUR', 2).length).toBe(catalog.games.filter((game) => game.providerId === 2).length);
    expect(view.games('EUR', 12345)).toEqual([]);
  });

  it('leaves out a game whose bet levels the currency cannot express', () => {
    const narrow: Catalog = {
      ...catalog,
      games: catalog.games.map((game) =>
        game.gameId === 101 ? { ...game, betLevels: { default: [0.2, 0.5] } } : game,
      ),
    };
    const narrowView = new CatalogView(narrow);
    expect(narrowView.games('ISK').some((game) => game.gameId === 101)).toBe(false);
    expect(narrowView.games('EUR').some((game) => game.gameId === 101)).toBe(true);
  });

  it('keeps only the levels a currency can express', () => {
    const game = { ...(catalog.games[0] as Catalog['games'][number]), betLevels: { default: [0.2, 1, 2.5, 10] } };
    expect(betLevelsIn(game, 'ISK')).toEqual([1, 10]);
    expect(betLevelsIn(game, 'EUR')).toEqual([0.2, 1, 2.5, 10]);
  });
});
