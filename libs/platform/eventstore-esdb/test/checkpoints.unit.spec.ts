import { describe, expect, it } from '@jest/globals';
import { checkpointAdvances } from '../src/checkpoints.js';
import { encodePosition } from '../src/position.js';
import { checkpointStreamId } from '../src/stream-names.js';

const at = (commit: bigint, prepare = commit) => encodePosition({ commit, prepare });

describe('checkpoint ordering', () => {
  it('stores the first checkpoint of a name', () => {
    expect(checkpointAdvances(undefined, at(1n))).toBe(true);
  });

  it('moves only forwards: later positions advance, equal and earlier ones do not', () => {
    expect(checkpointAdvances(at(100n), at(101n))).toBe(true);
    expect(checkpointAdvances(at(100n, 90n), at(100n, 95n))).toBe(true);
    expect(checkpointAdvances(at(100n), at(100n))).toBe(false);
    expect(checkpointAdvances(at(100n), at(99n))).toBe(false);
    expect(checkpointAdvances(at(2n ** 62n), at(2n ** 61n))).toBe(false);
  });

  it('refuses a position that is not one of this store', () => {
    expect(() => checkpointAdvances(at(1n), '17')).toThrow(/not an EventStoreDB \$all position/);
  });

  it('keeps each checkpoint in its own stream, hidden from $all readers', () => {
    expect(checkpointStreamId('bonus-events-relay')).toBe('checkpoint-bonus-events-relay');
  });
});
