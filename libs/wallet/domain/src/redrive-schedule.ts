/**
 * When a dead-lettered win is re-driven without a person (docs/adr/0016-scheduled-win-redrive.md,
 * D11 amended): `everySeconds` after each dead letter, as long as that is within `forSeconds` of
 * the first one. Derived from the walletTx record alone (its dead letters' times), so every
 * dispatcher, after any restart, computes the same schedule.
 */
import { WIN_REDRIVE_DEFAULTS, type OperatorConfig, type WinRedriveSchedule } from '@reelstream/contracts';
import type { WalletTxState } from './state.js';

export function winRedriveOf(operator: Pick<OperatorConfig, 'winRedrive'>): WinRedriveSchedule {
  return operator.winRedrive ?? WIN_REDRIVE_DEFAULTS;
}

/** Whether the record is its own win, dead-lettered now: only such a win is re-driven (a stray's transactionId names another request). */
function standingOwnWin(state: WalletTxState): boolean {
  return state.status === 'dead_lettered' && state.request?.command === 'win';
}

/** When the schedule re-drives the win next (ISO-8601), or undefined: not dead-lettered, or the schedule is over. */
export function nextRedriveAt(state: WalletTxState, schedule: WinRedriveSchedule): string | undefined {
  if (!standingOwnWin(state) || state.deadLetteredAt === undefined) return undefined;
  const first = Date.parse(state.firstDeadLetteredAt ?? state.deadLetteredAt);
  const next = Date.parse(state.deadLetteredAt) + schedule.everySeconds * 1_000;
  if (Number.isNaN(first) || Number.isNaN(next) || next > first + schedule.forSeconds * 1_000) return undefined;
  return new Date(next).toISOString();
}

/** A win still dead-lettered that the schedule will not re-drive again: it waits for a person, and alerts. */
export function redriveScheduleOver(state: WalletTxState, schedule: WinRedriveSchedule): boolean {
  return standingOwnWin(state) && nextRedriveAt(state, schedule) === undefined;
}

/**
 * Whether the scheduled re-drive of dead letter number `deadLetter` still applies: the win is still
 * at that dead letter, or its re-drive was interrupted (pending, same count) and goes on from the record.
 */
export function scheduledRedriveApplies(state: WalletTxState, deadLetter: number): boolean {
  const atThatLetter = state.request?.command === 'win' && state.deadLetters === deadLetter;
  return atThatLetter && (state.status === 'dead_lettered' || state.status === 'pending');
}
