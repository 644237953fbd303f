import type { LineWin, SlotSpin } from '../round/round-outcome.js';
import type { CompiledSlot } from './compiled-slot.js';
import { computeLineKeys, visibleScatters } from './spin-evaluation.js';

/**
 * The full picture of one spin for players and auditors. It computes the same line keys and
 * reads the same tables as the simulation's `lineWinCoins`, so the pays shown are the pays measured.
 */
export function describeSpin(slot: CompiledSlot, stops: Int32Array, multiplier: number): SlotSpin {
  const keys = new Int32Array(slot.lineCount);
  computeLineKeys(slot, stops, keys);

  const lineWins: LineWin[] = [];
  let lineCoins = 0;
  for (let line = 0; line < slot.lineCount; line++) {
    const key = keys[line] ?? 0;
    const coins = slot.linePayCoins[key] ?? 0;
    if (coins === 0) continue;
    lineCoins += coins;
    // A key that pays names the symbol it pays (compiled-slot fills both tables from one evaluation).
    const symbol = slot.symbolCodes[slot.linePaySymbol[key] as number] as string;
    lineWins.push({ line, symbol, count: slot.linePayCount[key] ?? 0, coins });
  }

  const scatterCount = visibleScatters(slot, stops);
  const scatterWinCoins = slot.scatterPayCoins[scatterCount] ?? 0;
  const window: string[] = [];
  for (let r = 0; r < slot.reelCount; r++) {
    let shown = '';
    const base = ((slot.stripOffset[r] ?? 0) + (stops[r] ?? 0)) * slot.rows;
    for (let row = 0; row < slot.rows; row++) shown += slot.symbolCodes[slot.windowSymbols[base + row] ?? 0];
    window.push(shown);
  }

  return {
    stops: Array.from(stops),
    window,
    lineWins,
    scatterCount,
    scatterWinCoins,
    multiplier,
    winCoins: (lineCoins + scatterWinCoins) * multiplier,
  };
}
