import { describe, expect, it } from '@jest/globals';
import type { WalletTxEvent, WalletWinRequest } from '@reelstream/contracts';
import { winAdmission } from '../src/index.js';
import { attempted, bet, now, requested, stateOf, win } from './fixtures.js';

const configured = { operatorConfigured: true };
const unknownOperator = { operatorConfigured: false };
const sourced = { ok: true } as const;
const mismatch = { ok: false, reason: 'source_mismatch', detail: 'the round paid 300, not 400' } as const;

const succeeded: WalletTxEvent = { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_850, at: now } };
const refusedBefore = (request: WalletWinRequest): WalletTxEvent => ({
  type: 'WinRefused',
  data: { request, reason: 'source_not_found', detail: 'round 201 has no RoundStarted', at: now },
});

describe('win admission: the checks of a win, in order, on its walletTx record', () => {
  it('delivers a win recorded before without checking its source again (it was checked then)', () => {
    expect(winAdmission(stateOf([requested(win), attempted(1)]), win, configured)).toEqual({ verdict: 'deliver' });
  });

  it('answers a settled win of an operator no longer configured from its record, and dead-letters an unsettled one on it', () => {
    expect(winAdmission(stateOf([requested(win), attempted(1), succeeded]), win, unknownOperator)).toEqual({
      verdict: 'answer_from_record',
    });
    expect(winAdmission(stateOf([requested(win)]), win, unknownOperator)).toEqual({
      verdict: 'dead_letter_own',
      record: false,
      detail: `operator ${win.operatorId} is not configured on this dispatcher`,
    });
  });

  it('refuses again a win identical to one refused before, as then; another win under that transactionId is checked', () => {
    const state = stateOf([refusedBefore(win)]);
    expect(winAdmission(state, win, configured)).toEqual({
      verdict: 'refused_again',
      reason: 'source_not_found',
      detail: 'round 201 has no RoundStarted',
    });
    expect(winAdmission(state, { ...win, amountMinor: 401 }, configured)).toEqual({ verdict: 'check_source' });
  });

  it('asks for the source of a win it does not know, and refuses one that does not match it', () => {
    expect(winAdmission(stateOf([]), win, configured)).toEqual({ verdict: 'check_source' });
    expect(winAdmission(stateOf([]), win, { ...configured, source: mismatch })).toEqual({
      verdict: 'refuse',
      reason: 'source_mismatch',
      detail: 'the round paid 300, not 400',
    });
    // The source decides before the operator: a forged win of an unknown operator is refused, not dead-lettered.
    expect(winAdmission(stateOf([]), win, { ...unknownOperator, source: mismatch })).toMatchObject({
      verdict: 'refuse',
    });
  });

  it('dead-letters a sourced win whose transactionId names another request beside it', () => {
    const other = { ...bet, transactionId: win.transactionId };
    expect(winAdmission(stateOf([requested(other)]), win, { ...configured, source: sourced })).toEqual({
      verdict: 'dead_letter_stray',
      detail: `transactionId ${win.transactionId} is already a bet of player ${bet.playerId} (operator ${bet.operatorId}) with other fields; this win is not sent under it`,
    });
    // The same win with other fields is another request too.
    expect(
      winAdmission(stateOf([requested(win)]), { ...win, amountMinor: 999 }, { ...configured, source: sourced }),
    ).toMatchObject({ verdict: 'dead_letter_stray' });
  });

  it('records and dead-letters a new sourced win of an unknown operator; delivers one of a configured operator', () => {
    expect(winAdmission(stateOf([]), win, { ...unknownOperator, source: sourced })).toEqual({
      verdict: 'dead_letter_own',
      record: true,
      detail: `operator ${win.operatorId} is not configured on this dispatcher`,
    });
    expect(winAdmission(stateOf([]), win, { ...configured, source: sourced })).toEqual({ verdict: 'deliver' });
  });
});
