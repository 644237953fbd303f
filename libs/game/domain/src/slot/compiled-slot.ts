import { compiledPerProfile } from '../compile-once.js';
import type { Profile } from '../profile.js';
import { evaluateLine, type LineRules } from './line-evaluation.js';
import type { SlotModel } from './slot-model.js';
import { validateSlotModel } from './validate-slot-model.js';

/**
 * A slot model and profile turned into flat typed arrays, built once and cached, so a spin is
 * a handful of array reads: no strings, objects or closures on the hot path.
 *
 * Layout: reel r's strip occupies positions `stripOffset[r] .. stripOffset[r] + stripLength[r]`;
 * its window at stop s occupies `(stripOffset[r] + s) * rows + row` in `windowSymbols`. A
 * payline's symbols s0..s(R-1) form the key Σ s_r · S^(R-1-r) into the line tables, which hold
 * the result of `evaluateLine` for every possible symbol tuple. `lineParts` holds, for every
 * reel position and payline, that reel's term of the key, so the keys of all lines are R
 * sequential vector adds.
 */
export interface CompiledSlot {
  readonly model: SlotModel;
  readonly profile: Profile;
  readonly reelCount: number;
  readonly rows: number;
  readonly symbolCount: number;
  readonly wild: number;
  readonly scatter: number;
  readonly symbolCodes: readonly string[];
  readonly lineRules: LineRules;
  readonly stripOffset: Int32Array;
  readonly stripLength: Int32Array;
  /** Symbol index at every strip position, all reels back to back. */
  readonly stripSymbols: Uint8Array;
  readonly windowSymbols: Uint8Array;
  /** Reel r's term of payline p's key at stop s, at `(stripOffset[r] + s) * lineCount + p`. */
  readonly lineParts: Int32Array;
  /** Visible scatters of reel r at stop s, at `stripOffset[r] + s`. */
  readonly windowScatters: Uint8Array;
  /** paylines[p][r] at `p * reelCount + r`. */
  readonly lineRows: Uint8Array;
  readonly lineCount: number;
  readonly linePayCoins: Int32Array;
  /** Symbol index paid by a line key, -1 for none. */
  readonly linePaySymbol: Int8Array;
  readonly linePayCount: Uint8Array;
  /** By visible scatter count (0 .. reels × rows). */
  readonly scatterPayCoins: Int32Array;
  readonly freeGames: Int32Array;
  readonly bonusMultiplier: number;
  readonly coinsPerBet: number;
}

const lineTableCache = new WeakMap<SlotModel, LineTables>();

interface LineTables {
  readonly lineRules: LineRules;
  readonly linePayCoins: Int32Array;
  readonly linePaySymbol: Int8Array;
  readonly linePayCount: Uint8Array;
}

/** A slot's tables for one profile: the model checked once, its tables built once per profile. */
export const compileSlot = compiledPerProfile(validateSlotModel, build);

// Long because: it lays out the flat tables the spin loop reads, each sized and offset from the ones before; split, the
// sizes would travel between functions.
function build(model: SlotModel, profile: Profile): CompiledSlot {
  const symbolCodes = model.symbols.map((symbol) => symbol.code);
  const indexOf = new Map(symbolCodes.map((code, index) => [code, index]));
  const wild = model.symbols.findIndex((symbol) => symbol.role === 'wild');
  const scatter = model.symbols.findIndex((symbol) => symbol.role === 'scatter');
  const strips = model.profiles[profile].reels;
  const reelCount = strips.length;
  const rows = model.rows;
  const symbolCount = symbolCodes.length;

  const stripLength = Int32Array.from(strips, (strip) => strip.length);
  const stripOffset = new Int32Array(reelCount);
  let totalPositions = 0;
  strips.forEach((strip, r) => {
    stripOffset[r] = totalPositions;
    totalPositions += strip.length;
  });

  const lineRows = Uint8Array.from(model.paylines.flat());
  const lineCount = model.paylines.length;
  const stripSymbols = new Uint8Array(totalPositions);
  const windowSymbols = new Uint8Array(totalPositions * rows);
  const lineParts = new Int32Array(totalPositions * lineCount);
  const windowScatters = new Uint8Array(totalPositions);
  strips.forEach((strip, r) => {
    const offset = stripOffset[r] ?? 0;
    const weight = symbolCount ** (reelCount - 1 - r);
    // validateSlotModel refused a strip with an unknown symbol.
    const symbols = [...strip].map((code) => indexOf.get(code) as number);
    symbols.forEach((symbol, stop) => {
      stripSymbols[offset + stop] = symbol;
      let scatters = 0;
      for (let row = 0; row < rows; row++) {
        const shown = symbols[(stop + row) % symbols.length] ?? 0;
        windowSymbols[(offset + stop) * rows + row] = shown;
        if (shown === scatter) scatters++;
      }
      windowScatters[offset + stop] = scatters;
      // Stryker disable next-line EqualityOperator: a line past the last writes the next stop's first entry,
      // which that stop writes again, or past the end of the typed array, which ignores it.
      for (let line = 0; line < lineCount; line++) {
        const row = lineRows[line * reelCount + r] ?? 0;
        lineParts[(offset + stop) * lineCount + line] = (windowSymbols[(offset + stop) * rows + row] ?? 0) * weight;
      }
    });
  });

  let lineTables = lineTableCache.get(model);
  if (!lineTables) {
    lineTables = buildLineTables(model, symbolCodes, reelCount, wild, scatter);
    lineTableCache.set(model, lineTables);
  }
  const { lineRules, linePayCoins, linePaySymbol, linePayCount } = lineTables;

  const maxScatters = reelCount * rows;
  const scatterPayCoins = new Int32Array(maxScatters + 1);
  for (const [count, coins] of Object.entries(model.scatterPays)) scatterPayCoins[Number(count)] = coins;
  const freeGames = new Int32Array(maxScatters + 1);
  for (const [count, games] of Object.entries(model.bonus.freeGames)) freeGames[Number(count)] = games;
  // "3 or more scatters": a count not listed awards and pays what the largest listed count below it does.
  for (let count = 1; count <= maxScatters; count++) {
    if (freeGames[count] === 0) freeGames[count] = freeGames[count - 1] as number;
    if (scatterPayCoins[count] === 0) scatterPayCoins[count] = scatterPayCoins[count - 1] as number;
  }

  return {
    model,
    profile,
    reelCount,
    rows,
    symbolCount,
    wild,
    scatter,
    symbolCodes,
    lineRules,
    stripOffset,
    stripLength,
    stripSymbols,
    windowSymbols,
    lineParts,
    windowScatters,
    lineRows,
    lineCount,
    linePayCoins,
    linePaySymbol,
    linePayCount,
    scatterPayCoins,
    freeGames,
    bonusMultiplier: model.bonus.multiplier,
    coinsPerBet: model.coinsPerBet,
  };
}

/** The pay of every possible symbol tuple on a line; the same for both profiles of a model. */
function buildLineTables(
  model: SlotModel,
  symbolCodes: readonly string[],
  reelCount: number,
  wild: number,
  scatter: number,
): LineTables {
  const symbolCount = symbolCodes.length;
  const pays = symbolCodes.map((code) => {
    const byCount = new Array<number>(reelCount + 1).fill(0);
    for (const [count, coins] of Object.entries(model.linePays[code] ?? {})) byCount[Number(count)] = coins;
    return byCount;
  });
  const lineRules: LineRules = { wild, scatter, pays };
  const tableSize = symbolCount ** reelCount;
  const linePayCoins = new Int32Array(tableSize);
  const linePaySymbol = new Int8Array(tableSize).fill(-1);
  const linePayCount = new Uint8Array(tableSize);
  const tuple = new Uint8Array(reelCount);
  // Stryker disable next-line EqualityOperator: a key past the table is evaluated, and its writes fall past the
  // end of the typed arrays, which ignore them.
  for (let key = 0; key < tableSize; key++) {
    let rest = key;
    for (let r = reelCount - 1; r >= 0; r--) {
      tuple[r] = rest % symbolCount;
      rest = (rest - (tuple[r] ?? 0)) / symbolCount;
    }
    const pay = evaluateLine(tuple, lineRules);
    if (pay) {
      linePayCoins[key] = pay.coins;
      linePaySymbol[key] = pay.symbol;
      linePayCount[key] = pay.count;
    }
  }
  return { lineRules, linePayCoins, linePaySymbol, linePayCount };
}
