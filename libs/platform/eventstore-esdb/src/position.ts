import type { Position } from '@reelstream/platform-ports';
import { ReelstreamError } from '@reelstream/contracts';

/** A `$all` position as EventStoreDB reports it: commit and prepare offsets in the transaction log. */
export interface EsdbPosition {
  commit: bigint;
  prepare: bigint;
}

// Both halves are unsigned 64-bit numbers: 20 decimal digits hold the largest one, so zero-padding to
// 20 digits makes the string order equal to the numeric order (commit first, then prepare).
const DIGITS = 20;
const MAX_U64 = 2n ** 64n - 1n;
const ENCODED = /^(\d{20})-(\d{20})$/;

/** Not retriable: the position was not written by this store. */
export class InvalidPositionError extends ReelstreamError {
  override readonly name = 'InvalidPositionError';
  constructor(readonly position: unknown) {
    super('INTERNAL', `not an EventStoreDB $all position: ${JSON.stringify(String(position))}`, { retriable: false });
  }
}

/** EventStoreDB answers 2^64−1 ("-1" unsigned) where it does not know an event's `$all` position. */
export function isUnknownPosition(position: EsdbPosition): boolean {
  return position.commit === MAX_U64 || position.prepare === MAX_U64;
}

export function encodePosition(position: EsdbPosition): Position {
  const { commit, prepare } = position;
  if (commit < 0n || prepare < 0n || commit > MAX_U64 || prepare > MAX_U64)
    throw new InvalidPositionError(`${commit}/${prepare}`);
  return `${commit.toString().padStart(DIGITS, '0')}-${prepare.toString().padStart(DIGITS, '0')}`;
}

export function decodePosition(position: Position): EsdbPosition {
  const match = ENCODED.exec(position);
  if (!match?.[1] || !match[2]) throw new InvalidPositionError(position);
  const decoded = { commit: BigInt(match[1]), prepare: BigInt(match[2]) };
  if (decoded.commit > MAX_U64 || decoded.prepare > MAX_U64) throw new InvalidPositionError(position);
  return decoded;
}

export function compareEsdbPositions(a: EsdbPosition, b: EsdbPosition): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** The port's `comparePositions`: decodes both sides so a malformed position fails loudly. */
export function comparePositions(a: Position, b: Position): number {
  return compareEsdbPositions(decodePosition(a), decodePosition(b));
}

/** True when `position` lies strictly past `bound` in the reading direction. */
export function isPast(position: EsdbPosition, bound: EsdbPosition, direction: 'forwards' | 'backwards'): boolean {
  const order = compareEsdbPositions(position, bound);
  return direction === 'forwards' ? order > 0 : order < 0;
}
