import { ModelError } from '../model-error.js';
import type { SlotModel, SlotSymbol } from '../slot/slot-model.js';
import { firstPaylines } from './paylines.js';

/**
 * A line slot's math as its data file (`<id>.json` beside this module) holds it: the model with
 * `paylines` given as how many of the standard 5×3 lines it plays (10, 20 or 25), and each symbol's
 * role as the text a JSON file can hold.
 *
 * Strips: each string is one reel, one symbol per character, read top to bottom and wrapping. They
 * were tuned so that `theoreticalRtp` lands on each profile's target (tests hold it to ±0.05 %).
 */
export interface SlotModelData extends Omit<SlotModel, 'kind' | 'symbols' | 'paylines'> {
  readonly symbols: readonly { readonly code: string; readonly name: string; readonly role: string }[];
  readonly paylines: number;
}

const ROLES: readonly string[] = ['wild', 'scatter', 'regular'] satisfies SlotSymbol['role'][];
const LINE_COUNTS: readonly number[] = [10, 20, 25];

/** The model a data file describes; a role or line count the engine does not know is a ModelError. */
export function slotModelOf(data: SlotModelData): SlotModel {
  const symbols = data.symbols.map((symbol): SlotSymbol => {
    if (!isRole(symbol.role)) throw new ModelError(data.id, `symbol ${symbol.code} has unknown role ${symbol.role}`);
    return { code: symbol.code, name: symbol.name, role: symbol.role };
  });
  if (!isLineCount(data.paylines))
    throw new ModelError(data.id, `paylines must be one of ${LINE_COUNTS.join(', ')}, not ${data.paylines}`);
  return { ...data, kind: 'slot', symbols, paylines: firstPaylines(data.paylines) };
}

function isRole(role: string): role is SlotSymbol['role'] {
  return ROLES.includes(role);
}

function isLineCount(count: number): count is 10 | 20 | 25 {
  return LINE_COUNTS.includes(count);
}
