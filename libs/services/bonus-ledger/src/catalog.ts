/** The game catalog as the ledger needs it (D4): does a provider exist, what is a game's provider, does it support free spins. */
import { readFileSync } from 'node:fs';
import type { CatalogLookup } from '@reelstream/bonus-application';
import { findGame, findProvider, parseCatalog, type Catalog } from '@reelstream/game-domain';

export function catalogLookup(catalog: Catalog): CatalogLookup {
  return {
    hasProvider: (providerId) => findProvider(catalog, providerId) !== undefined,
    game: (gameId) => {
      const game = findGame(catalog, gameId);
      return game && { gameId: game.gameId, providerId: game.providerId, supportsFreeSpins: game.supportsFreeSpins };
    },
  };
}

/** Reads and checks the catalog file (`parseCatalog` names every problem). */
export function loadCatalogFile(path: string): CatalogLookup {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the game catalog ${path}: ${(error as Error).message}`, { cause: error });
  }
  return catalogLookup(parseCatalog(json));
}
