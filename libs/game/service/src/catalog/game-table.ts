/** What the page needs to draw the game: symbols, rows and paylines, never the strips. */
import type { GameLayout } from '@reelstream/contracts';
import type { GameModel, Profile } from '@reelstream/game-domain';

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
