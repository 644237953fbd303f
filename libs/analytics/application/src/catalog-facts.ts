/** What the game-performance report needs of the catalogue, from a parsed catalogue. */
import type { Catalog } from '@reelstream/contracts';
import type { CatalogGameFacts } from '@reelstream/analytics-domain';

export function catalogFacts(catalog: Catalog): Map<number, CatalogGameFacts> {
  return new Map(
    catalog.games.map((game) => [
      game.gameId,
      { name: game.name, model: game.model, rtp: game.rtp, streamerRtp: game.streamerRtp },
    ]),
  );
}
