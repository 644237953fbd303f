/**
 * The catalog as the game-server plays it: a session's game with its math model, its bet
 * levels in the session's currency and the layout the page draws.
 */
import type { GameLayout } from '@reelstream/contracts';
import {
  findModel,
  offeredBetLevelsMinor,
  type Catalog,
  type CatalogGame,
  type GameModel,
  type Profile,
} from '@reelstream/game-domain';

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

/** What the page needs to draw the game: symbols, rows and paylines, never the strips. */
export function layoutOf(model: GameModel, profile: Profile): GameLayout {
  if (model.kind === 'slot') {
    return {
      kind: 'slot',
      reels: model.profiles[profile].reels.length,
      rows: model.rows,
      symbols: model.symbols.map((symbol) => ({ code: symbol.code, name: symbol.name, role: symbol.role })),
      paylines: model.paylines.map((line) => [...line]),
    };
  }
  return {
    kind: 'instant',
    segments: model.profiles[profile].segments.map((segment) => segment.multiplierCoins / model.coinsPerBet),
  };
}
