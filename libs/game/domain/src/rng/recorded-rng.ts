import { ReelstreamError } from '@reelstream/contracts';
import type { Rng } from './rng.js';

/** Passes draws through from another `Rng` and keeps each one, in order: the round's audit trail. */
export class RecordingRng implements Rng {
  readonly draws: number[] = [];
  constructor(private readonly source: Rng) {}

  nextInt(maxExclusive: number): number {
    const value = this.source.nextInt(maxExclusive);
    this.draws.push(value);
    return value;
  }
}

export type ReplayErrorCode =
  | 'INVALID_RECORD'
  | 'UNKNOWN_MODEL'
  | 'MODEL_MISMATCH'
  | 'DRAW_OUT_OF_RANGE'
  | 'DRAWS_EXHAUSTED'
  | 'DRAWS_LEFT_OVER'
  | 'OUTCOME_MISMATCH';

/**
 * A record that does not replay to its outcome: tampered, corrupted, or of a model this release lacks.
 * A stored round that cannot be read, so `EVENT_NOT_READABLE`: the same record fails the same way.
 */
export class ReplayError extends ReelstreamError {
  override readonly name = 'ReplayError';
  constructor(
    readonly reason: ReplayErrorCode,
    message: string,
  ) {
    super('EVENT_NOT_READABLE', message, { retriable: false });
  }
}

/**
 * Feeds recorded draws back to the engine instead of randomness. A draw that the engine could
 * never have received (negative, fractional, at or above the bound it asks for) or a record with
 * too few or too many draws is a tampered or corrupted record, never silently accepted.
 */
export class ReplayRng implements Rng {
  private position = 0;
  constructor(private readonly draws: readonly number[]) {}

  nextInt(maxExclusive: number): number {
    const index = this.position;
    if (index >= this.draws.length) {
      throw new ReplayError(
        'DRAWS_EXHAUSTED',
        `the round asks for draw #${index} but the record holds only ${this.draws.length}`,
      );
    }
    const value = this.draws[index];
    if (value === undefined || !Number.isInteger(value) || value < 0 || value >= maxExclusive) {
      throw new ReplayError('DRAW_OUT_OF_RANGE', `draw #${index} is ${String(value)}, outside [0, ${maxExclusive})`);
    }
    this.position = index + 1;
    return value;
  }

  /** Called once the round is complete: every recorded draw must have been used. */
  assertFullyConsumed(): void {
    if (this.position !== this.draws.length) {
      throw new ReplayError(
        'DRAWS_LEFT_OVER',
        `the round used ${this.position} draws but the record holds ${this.draws.length}`,
      );
    }
  }
}
