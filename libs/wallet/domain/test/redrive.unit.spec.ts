import { describe, expect, it } from '@jest/globals';
import type { WalletTxEvent } from '@reelstream/contracts';
import { redriveRefusalOf } from '../src/index.js';
import { attempted, bet, conflictOf, failedWith, now, requested, stateOf, win } from './fixtures.js';

const deadLettered: WalletTxEvent = {
  type: 'WinDeadLettered',
  data: { attempts: 3, lastError: 'timeout', at: now, reason: 'delivery_failed' },
};
const target = { transactionId: win.transactionId, operatorId: win.operatorId, playerId: win.playerId };

describe('which transaction a re-drive may send again (D11)', () => {
  it('a dead-lettered win of the player and operator it names', () => {
    const state = stateOf([requested(win), attempted(1), failedWith(1, true), deadLettered]);
    expect(redriveRefusalOf(state, target)).toBeUndefined();
  });

  it('not a transaction of another player or operator, nor one never recorded', () => {
    const state = stateOf([requested(win), attempted(1), failedWith(1, true), deadLettered]);
    expect(redriveRefusalOf(state, { ...target, playerId: 'player_43' })).toMatch(/^no transaction 102 of player/);
    expect(redriveRefusalOf(state, { ...target, operatorId: 'other' })).toMatch(/^no transaction 102 of player/);
    expect(redriveRefusalOf(stateOf([]), target)).toMatch(/is recorded$/);
  });

  it('not a bet: only wins are re-driven', () => {
    const state = stateOf([requested(bet)]);
    expect(redriveRefusalOf(state, { ...target, transactionId: bet.transactionId })).toBe(
      'transaction 101 is a bet: only wins are re-driven (D11)',
    );
  });

  it('not a conflicting win dead-lettered beside a delivered one: that would send the recorded request', () => {
    const succeeded = { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 500, at: now } };
    const state = stateOf([requested(win), attempted(1), succeeded as WalletTxEvent, conflictOf()]);
    expect(redriveRefusalOf(state, target)).toBe(
      'the dead-lettered win 102 (transaction_id_conflict) cannot be re-driven: its transactionId names another recorded request',
    );
  });

  it('a conflicting win of another player, or of another operator’s player, does not stand in the way', () => {
    const inFlight = [requested(win), attempted(1)];
    expect(redriveRefusalOf(stateOf([...inFlight, conflictOf({ playerId: 'player_43' })]), target)).toBeUndefined();
    expect(redriveRefusalOf(stateOf([...inFlight, conflictOf({ operatorId: 'other' })]), target)).toBeUndefined();
  });

  it('the win’s own dead letter is re-driven even beside a conflicting win of the same player', () => {
    const state = stateOf([requested(win), attempted(1), failedWith(1, true), conflictOf(), deadLettered]);
    expect(redriveRefusalOf(state, target)).toBeUndefined();
  });
});
