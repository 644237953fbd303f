import type { Rng } from '../rng/rng.js';
import type { CompiledSlot } from './compiled-slot.js';

/**
 * The evaluation every path shares — play, replay, simulation and the benchmark — so what is
 * measured is what is played. Nothing here allocates: callers pass their scratch arrays.
 */

/** One stop per reel, reel 0 first: the draw order every round record relies on. */
export function drawStops(slot: CompiledSlot, rng: Rng, stops: Int32Array): void {
  const lengths = slot.stripLength;
  for (let r = 0; r < slot.reelCount; r++) stops[r] = rng.nextInt(lengths[r] as number);
}

/**
 * The line-table key of every payline into `keys` (length ≥ lineCount). Stops must be in range:
 * they come from `drawStops`, whose bounds are the strip lengths.
 */
export function computeLineKeys(slot: CompiledSlot, stops: Int32Array, keys: Int32Array): void {
  const { lineParts, stripOffset, lineCount } = slot;
  let base = ((stripOffset[0] as number) + (stops[0] as number)) * lineCount;
  for (let line = 0; line < lineCount; line++) keys[line] = lineParts[base + line] as number;
  for (let r = 1; r < slot.reelCount; r++) {
    base = ((stripOffset[r] as number) + (stops[r] as number)) * lineCount;
    for (let line = 0; line < lineCount; line++)
      keys[line] = (keys[line] as number) + (lineParts[base + line] as number);
  }
}

/** Sum of all line pays for keys from `computeLineKeys`, in coins, before any bonus multiplier. */
export function lineWinCoins(slot: CompiledSlot, keys: Int32Array): number {
  const pays = slot.linePayCoins;
  let coins = 0;
  for (let line = 0; line < slot.lineCount; line++) coins += pays[keys[line] as number] as number;
  return coins;
}

export function visibleScatters(slot: CompiledSlot, stops: Int32Array): number {
  const { stripOffset, windowScatters } = slot;
  let count = 0;
  for (let r = 0; r < slot.reelCount; r++)
    count += windowScatters[(stripOffset[r] as number) + (stops[r] as number)] as number;
  return count;
}
