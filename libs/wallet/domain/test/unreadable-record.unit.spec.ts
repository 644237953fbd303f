import { describe, expect, it } from '@jest/globals';
import { deciderSpecification } from '@reelstream/testing';
import { unreadableRecordDecider, type WinDeadLettered } from '../src/index.js';
import { now, win } from './fixtures.js';

const spec = deciderSpecification(unreadableRecordDecider);

const letter = (request: typeof win, at = now): WinDeadLettered => ({
  type: 'WinDeadLettered',
  data: { attempts: 0, lastError: 'cannot be read', at, reason: 'decision_refused', request },
});

describe('unreadableRecordDecider: one dead letter per win on a record that cannot be folded', () => {
  it('records the dead letter of a win', () => {
    spec
      .given([])
      .when(letter(win))
      .then([letter(win)]);
  });

  it('records nothing for a win dead-lettered before, whatever the key order, and keeps the first time', () => {
    const reordered = Object.fromEntries(Object.entries(win).reverse()) as typeof win;
    spec
      .given([letter(win, '2026-05-01T09:00:00.000Z')])
      .when(letter(reordered))
      .thenNothing();
    const letters = [letter(win, '2026-05-01T09:00:00.000Z'), letter(win)].reduce(
      unreadableRecordDecider.evolve,
      unreadableRecordDecider.initialState,
    );
    expect(unreadableRecordDecider.deadLetteredAt(letters, win)).toBe('2026-05-01T09:00:00.000Z');
  });

  it('records another win under the same transactionId beside it', () => {
    const other = { ...win, amountMinor: 999 };
    spec
      .given([letter(win)])
      .when(letter(other))
      .then([letter(other)]);
    expect(unreadableRecordDecider.deadLetteredAt(unreadableRecordDecider.initialState, other)).toBeUndefined();
  });
});
