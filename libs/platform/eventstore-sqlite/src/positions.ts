import type { Position } from '@reelstream/platform-ports';

const decimal = /^(0|[1-9][0-9]*)$/;

/** Turns a `Position` of this store (the decimal rowid of the event) into its number. */
export function parsePosition(position: Position): number {
  const value = decimal.test(position) ? Number(position) : Number.NaN;
  if (!Number.isSafeInteger(value))
    throw new RangeError(`not a position of the SQLite event store: ${JSON.stringify(position)}`);
  return value;
}

/**
 * Orders two non-negative decimal positions without converting them to numbers, so it also
 * serves checkpoints of stores whose positions outgrow 2^53.
 */
export function compareDecimalPositions(a: Position, b: Position): number {
  if (!decimal.test(a) || !decimal.test(b)) {
    throw new RangeError(
      `positions must be non-negative decimal strings, got ${JSON.stringify(a)} and ${JSON.stringify(b)}`,
    );
  }
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
