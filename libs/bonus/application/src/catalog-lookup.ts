/**
 * The game catalog as registrations need it (D4): does a provider exist, a game's provider, what
 * bonus it can deliver, bet levels in a currency. Indexed once: a registration looks up each game.
 */
import { offeredBetLevelsMinor, type Catalog } from '@reelstream/contracts';
import type { CatalogLookup } from './ports.js';

export function catalogLookup(catalog: Catalog): CatalogLookup {
  const providerIds = new Set(catalog.providers.map((provider) => provider.providerId));
  const gamesById = new Map(catalog.games.map((game) => [game.gameId, game]));
  return {
    hasProvider: (providerId) => providerIds.has(providerId),
    game: (gameId, currency) => {
      const game = gamesById.get(gameId);
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
