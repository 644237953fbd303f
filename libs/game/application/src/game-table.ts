/** The catalog as the game-server plays it: a game with its math model and its bet levels in a currency. */
import { offeredBetLevelsMinor, type Catalog, type CatalogGame } from '@reelstream/contracts';
import { findModel, type GameModel } from '@reelstream/game-domain';

export interface TableGame {
  readonly game: CatalogGame;
  readonly model: GameModel;
}

export class GameTable {
  private readonly games = new Map<number, TableGame>();

  constructor(catalog: Catalog) {
    for (const game of catalog.games) {
      const model = findModel(game.model);
      // parseCatalog already refuses an unknown model; this keeps the type honest.
      if (!model) throw new Error(`game ${game.gameId} names unknown model ${game.model}`);
      this.games.set(game.gameId, { game, model });
    }
  }

  find(gameId: number): TableGame | undefined {
    return this.games.get(gameId);
  }

  /** The bet levels of the game in `currency`, in minor units: its own list or the default, minus the levels the currency cannot express. */
  betLevelsMinor(game: CatalogGame, currency: string): number[] {
    return offeredBetLevelsMinor(game, currency);
  }
}
