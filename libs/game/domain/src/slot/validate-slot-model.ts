import { ModelError } from '../model-error.js';
import { profiles } from '../profile.js';
import type { SlotModel } from './slot-model.js';

/** The largest line lookup table (symbols ^ reels entries) a model may need. */
const MAX_LINE_TABLE_SIZE = 1 << 22;
const MAX_SYMBOLS = 64;
const MAX_ROWS = 16;

/** Rejects a model the engine could misplay: every later step may trust the definition. */
export function validateSlotModel(model: SlotModel): void {
  const fail = (problem: string): never => {
    throw new ModelError(model.id, problem);
  };
  const codes = model.symbols.map((symbol) => symbol.code);
  if (codes.some((code) => code.length !== 1)) fail('symbol codes must be single characters');
  if (new Set(codes).size !== codes.length) fail('symbol codes must be unique');
  if (model.symbols.filter((s) => s.role === 'wild').length !== 1) fail('exactly one wild symbol is required');
  if (model.symbols.filter((s) => s.role === 'scatter').length !== 1) fail('exactly one scatter symbol is required');
  // Symbol indexes and per-reel scatter counts are stored in bytes.
  if (model.symbols.length > MAX_SYMBOLS) fail(`at most ${MAX_SYMBOLS} symbols`);
  if (!isPositiveInt(model.rows) || model.rows > MAX_ROWS) fail(`rows must be an integer from 1 to ${MAX_ROWS}`);
  if (!isPositiveInt(model.coinsPerBet)) fail('coinsPerBet must be a positive integer');

  const reelCount = model.profiles.standard.reels.length;
  if (reelCount < 1) fail('at least one reel is required');
  if (model.symbols.length ** reelCount > MAX_LINE_TABLE_SIZE) fail('too many symbols and reels for the line table');
  if (model.paylines.length < 1) fail('at least one payline is required');
  model.paylines.forEach((line, index) => {
    if (line.length !== reelCount) fail(`payline ${index} must name one row per reel (${reelCount})`);
    if (line.some((row) => !Number.isInteger(row) || row < 0 || row >= model.rows))
      fail(`payline ${index} has a row outside 0..${model.rows - 1}`);
  });

  const scatter = model.symbols.find((s) => s.role === 'scatter')?.code;
  for (const [code, pays] of Object.entries(model.linePays)) {
    if (!codes.includes(code)) fail(`line pays name unknown symbol ${JSON.stringify(code)}`);
    if (code === scatter) fail('the scatter has no line pays (it pays anywhere)');
    checkPays(pays, reelCount, `line pays of ${code}`, fail);
  }
  checkPays(model.scatterPays, reelCount * model.rows, 'scatter pays', fail);
  checkPays(model.bonus.freeGames, reelCount * model.rows, 'bonus free games', fail);
  if (!isPositiveInt(model.bonus.multiplier)) fail('bonus multiplier must be a positive integer');

  for (const profile of profiles) {
    const { reels, targetRtp } = model.profiles[profile];
    if (!(targetRtp > 0)) fail(`${profile} target RTP must be positive`);
    if (reels.length !== reelCount) fail(`${profile} profile must have ${reelCount} reels`);
    reels.forEach((strip, reel) => {
      if (strip.length < model.rows) fail(`${profile} reel ${reel} is shorter than the window`);
      const unknown = [...strip].find((code) => !codes.includes(code));
      if (unknown !== undefined) fail(`${profile} reel ${reel} holds unknown symbol ${JSON.stringify(unknown)}`);
    });
  }
}

function checkPays(
  pays: Readonly<Record<number, number>>,
  maxCount: number,
  what: string,
  fail: (problem: string) => never,
): void {
  for (const [count, coins] of Object.entries(pays)) {
    const n = Number(count);
    if (!Number.isInteger(n) || n < 1 || n > maxCount) fail(`${what}: count ${count} is outside 1..${maxCount}`);
    if (!isPositiveInt(coins)) fail(`${what}: ${count} must be a positive integer, got ${coins}`);
  }
}

function isPositiveInt(value: number): boolean {
  return Number.isSafeInteger(value) && value > 0;
}
