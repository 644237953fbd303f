/** The game catalog as the ledger needs it (D4): does a provider exist, a game's provider, what bonus it can deliver, bet levels in a currency. */
import type { CatalogLookup } from '@reelstream/bonus-application';
import { offeredBetLevelsMinor, findGame, findProvider, type Catalog } from '@reelstream/game-domain';

export function catalogLookup(catalog: Catalog): CatalogLookup {
  return {
    hasProvider: (providerId) => findProvider(catalog, providerId) !== undefined,
    game: (gameId, currency) => {
      const game = findGame(catalog, gameId);
      return (
        game && {
          gameId: game.gameId,
          providerId: game.providerId,
          supportsFreeSpins: game.supportsFreeSpins,
          supportsRegularBonusCall: game.supportsRegularBonusCall,
          betLevelsMinor: offeredBetLevelsMinor(game, currency),
        }
      );
    },
  };
}
