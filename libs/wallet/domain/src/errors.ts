/**
 * A command the walletTx decider refuses is a `Refusal` (contracts) with a code of the
 * catalogue. They were once snake_case reasons outside it. None is a stored field (the
 * `reason` of WinDeadLettered, which `wallet:redrive --list` shows, is another list, unchanged);
 * older dead letters may quote one in their free-text `lastError`, which reads as before. Renamed:
 * transaction_id_conflict → TRANSACTION_ID_CONFLICT, not_requested → WALLET_TX_NOT_RECORDED,
 * already_settled → WALLET_TX_SETTLED, attempts_exhausted → WALLET_ATTEMPTS_EXHAUSTED,
 * no_attempt_in_flight → WALLET_NO_ATTEMPT_IN_FLIGHT, cancel_transaction_id_missing →
 * WALLET_CANCEL_ID_MISSING, not_dead_lettered → WALLET_TX_NOT_DEAD_LETTERED, no_cancel_pending →
 * WALLET_NO_CANCEL_PENDING, not_a_win → WALLET_TX_NOT_A_WIN.
 */
import { isRefusal, refusal, type ErrorCode, type Refusal } from '@reelstream/contracts';

export type WalletDecisionCode = Extract<
  ErrorCode,
  | 'TRANSACTION_ID_CONFLICT'
  | 'WALLET_TX_NOT_RECORDED'
  | 'WALLET_TX_SETTLED'
  | 'WALLET_ATTEMPTS_EXHAUSTED'
  | 'WALLET_NO_ATTEMPT_IN_FLIGHT'
  | 'WALLET_CANCEL_ID_MISSING'
  | 'WALLET_TX_NOT_DEAD_LETTERED'
  | 'WALLET_NO_CANCEL_PENDING'
  | 'WALLET_TX_NOT_A_WIN'
  | 'WALLET_TX_NOT_A_STAKE'
  | 'WALLET_DEADLINE_NOT_PASSED'
>;

export interface WalletRefusal extends Refusal {
  readonly code: WalletDecisionCode;
}

export function walletRefusal(code: WalletDecisionCode, message: string): WalletRefusal {
  return { ...refusal(code, message), code };
}

export function isWalletRefusal(value: unknown): value is WalletRefusal {
  return isRefusal(value);
}
