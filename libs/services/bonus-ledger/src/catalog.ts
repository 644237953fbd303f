/** The game catalog as the ledger needs it (D4): does a provider exist, what is a game's provider, does it support free spins. */
import type { CatalogLookup } from '@reelstream/bonus-application';
import { DEFAULT_CATALOG_FILE, loadCatalogFile as readCatalogFile } from '@reelstream/config';
import { findGame, findProvider, type Catalog } from '@reelstream/game-domain';

export function catalogLookup(catalog: Catalog): CatalogLookup {
  return {
    hasProvider: (providerId) => findProvider(catalog, providerId) !== undefined,
    game: (gameId) => {
      const game = findGame(catalog, gameId);
      return game && { gameId: game.gameId, providerId: game.providerId, supportsFreeSpins: game.supportsFreeSpins };
    },
  };
}

/** Reads and checks the catalog file (the shared loader names the file and every problem) as the ledger's lookup. */
export function loadCatalogFile(path: string = DEFAULT_CATALOG_FILE): CatalogLookup {
  return catalogLookup(readCatalogFile(path));
}
