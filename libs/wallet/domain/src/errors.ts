/** A command the walletTx decider refuses, as a value with a reason code and a message. */
export type WalletDecisionReason =
  | 'transaction_id_conflict'
  | 'not_requested'
  | 'already_settled'
  | 'attempts_exhausted'
  | 'no_attempt_in_flight'
  | 'cancel_transaction_id_missing'
  | 'not_dead_lettered'
  | 'no_cancel_pending'
  | 'not_a_win';

export interface WalletDecisionError {
  readonly type: 'WalletDecisionError';
  readonly reason: WalletDecisionReason;
  readonly message: string;
}

export function walletDecisionError(reason: WalletDecisionReason, message: string): WalletDecisionError {
  return { type: 'WalletDecisionError', reason, message };
}

export function isWalletDecisionError(value: unknown): value is WalletDecisionError {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'WalletDecisionError';
}
