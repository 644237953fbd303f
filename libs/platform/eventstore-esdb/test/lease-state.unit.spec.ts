import { describe, expect, it } from '@jest/globals';
import { FencedOutError } from '@reelstream/platform-ports';
import { checkpointAdvances } from '../src/checkpoints.js';
import {
  acquiredState,
  checkpointedState,
  leaseOf,
  leaseStateSchema,
  releasedState,
  renewedState,
  type LeaseState,
} from '../src/lease-state.js';
import { encodePosition } from '../src/position.js';
import { isVisibleInAll, leaseStreamId } from '../src/stream-names.js';

const at = (n: bigint) => encodePosition({ commit: n, prepare: n });
const held: LeaseState = { owner: 'ledger-0', token: 4, expiresAt: 10_000, position: at(50n) };
const leaseOfHeld = leaseOf('relay', held);

describe('EventStoreDB lease states', () => {
  it('keeps each lease in its own stream, hidden from $all readers', () => {
    expect(leaseStreamId('bonus-ledger.relay')).toBe('lease-bonus-ledger.relay');
    expect(isVisibleInAll('lease-bonus-ledger.relay', 'LeaseState')).toBe(false);
  });

  it('grants a never-written name token 1', () => {
    expect(acquiredState(undefined, 'ledger-0', 1_000, 500)).toEqual({ owner: 'ledger-0', token: 1, expiresAt: 1_500 });
  });

  it('refuses a held name to another owner until it expires, then grants the next token and keeps the checkpoint', () => {
    expect(acquiredState(held, 'ledger-1', 1_000, 9_999)).toBeUndefined();
    expect(acquiredState(held, 'ledger-1', 1_000, 10_000)).toEqual({
      owner: 'ledger-1',
      token: 5,
      expiresAt: 11_000,
      position: at(50n),
    });
  });

  it('re-grants its own name to a restarted owner under a new token', () => {
    expect(acquiredState(held, 'ledger-0', 1_000, 2_000)?.token).toBe(5);
  });

  it('renews the same token for its owner only, and not after a release or a newer grant', () => {
    expect(renewedState(held, leaseOfHeld, 1_000, 9_000)).toEqual({ ...held, expiresAt: 10_000 });
    expect(renewedState(held, { ...leaseOfHeld, owner: 'ledger-1' }, 1_000, 9_000)).toBeUndefined();
    expect(renewedState({ ...held, token: 5 }, leaseOfHeld, 1_000, 9_000)).toBeUndefined();
    expect(renewedState({ ...held, expiresAt: 0 }, leaseOfHeld, 1_000, 9_000)).toBeUndefined();
    expect(renewedState(undefined, leaseOfHeld, 1_000, 9_000)).toBeUndefined();
  });

  it('releases by setting the expiry to 0, once, and only with the current token', () => {
    expect(releasedState(held, leaseOfHeld)).toEqual({ ...held, expiresAt: 0 });
    expect(releasedState({ ...held, expiresAt: 0 }, leaseOfHeld)).toBeUndefined();
    expect(releasedState({ ...held, token: 5 }, leaseOfHeld)).toBeUndefined();
  });

  it('writes a checkpoint forwards under the current token, and ignores one that does not advance', () => {
    expect(checkpointedState('relay', held, 4, at(60n), checkpointAdvances)).toEqual({ ...held, position: at(60n) });
    expect(checkpointedState('relay', held, 4, at(50n), checkpointAdvances)).toBeUndefined();
    expect(checkpointedState('relay', held, 4, at(40n), checkpointAdvances)).toBeUndefined();
  });

  it('fences an older token back and forward, and any token when no lease was ever granted', () => {
    const newer = { ...held, token: 5 };
    expect(() => checkpointedState('relay', newer, 4, at(60n), checkpointAdvances)).toThrow(FencedOutError);
    expect(() => checkpointedState('relay', newer, 4, at(40n), checkpointAdvances)).toThrow(FencedOutError);
    expect(() => checkpointedState('relay', undefined, 1, at(1n), checkpointAdvances)).toThrow(FencedOutError);
  });

  it('reads back what it writes, and refuses a malformed state', () => {
    expect(leaseStateSchema.parse(JSON.parse(JSON.stringify(held)))).toEqual(held);
    expect(() => leaseStateSchema.parse({ owner: 'x', token: 0, expiresAt: 1 })).toThrow();
  });
});
