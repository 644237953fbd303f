/**
 * The delivery history of one wallet transaction, folded from its `walletTx-{transactionId}`
 * stream: what was asked, how many attempts went out, whether the last one is still without a
 * recorded outcome, and the cancel or dead letter that followed a final failure.
 */
import type { FailureStatusCode } from './answer.js';
import type {
  WalletBetRequest,
  WalletBetwinRequest,
  WalletRequest,
  WalletWinRequest,
  WinDeadLetterReason,
} from '@reelstream/contracts';

/**
 * - `new`: nothing recorded yet;
 * - `pending`: requested, being delivered (an attempt may be in flight);
 * - `succeeded`: the operator answered OK;
 * - `failed`: a bet or betwin failed for good (its round is canceled: see `cancel`);
 * - `dead_lettered`: a win failed every attempt of its last delivery (D11), until re-driven.
 */
type DeliveryStatus = 'new' | 'pending' | 'succeeded' | 'failed' | 'dead_lettered';

interface RecordedFailure {
  readonly statusCode: FailureStatusCode;
  readonly reason: string;
}

export interface CancelState {
  readonly cancelTransactionId: number;
  readonly requestedAt: string;
  /** Cancel attempts started (1-based numbers). */
  readonly attempts: number;
  /** The last cancel attempt went out and its outcome is not recorded. */
  readonly inFlight: boolean;
  readonly succeeded: boolean;
  readonly balanceMinor: number | undefined;
  readonly lastError: string | undefined;
}

/** A win that names this stream's transactionId but is not its request: refused, or dead-lettered as a conflict. */
interface StrayWin<Reason extends string> {
  readonly request: WalletWinRequest;
  readonly reason: Reason;
  readonly detail: string;
  readonly at: string;
}

export type WinRefusalReason = 'no_source' | 'source_not_found' | 'source_mismatch';

/** Why a bet or betwin was refused: its round's RoundStarted is not there, or says otherwise. */
export type StakeRefusalReason = 'source_not_found' | 'source_mismatch';

export type StakeRequest = WalletBetRequest | WalletBetwinRequest;

/** A bet or betwin refused because it does not match its round's RoundStarted: never sent. */
interface RefusedStake {
  readonly request: StakeRequest;
  readonly reason: StakeRefusalReason;
  readonly detail: string;
  readonly at: string;
}

export interface WalletTxState {
  readonly status: DeliveryStatus;
  readonly request: WalletRequest | undefined;
  /** Attempts started over the transaction's life (a re-drive continues the count). */
  readonly attempts: number;
  /** Attempts made before the current delivery began: 0, or the count at the last dead letter. */
  readonly deliveryStartedAfter: number;
  /** The last attempt went out and its outcome is not recorded (a crash in between): its result is unknown. */
  readonly inFlight: boolean;
  readonly balanceMinor: number | undefined;
  readonly lastFailure: RecordedFailure | undefined;
  readonly cancel: CancelState | undefined;
  readonly deadLetters: number;
  readonly deadLetteredAt: string | undefined;
  /** When the win was first dead-lettered: the scheduled re-drives stop a window after it. */
  readonly firstDeadLetteredAt: string | undefined;
  /** Why the last dead letter was written (`delivery_failed` for events written before reasons were recorded). */
  readonly deadLetterReason: WinDeadLetterReason | undefined;
  readonly deadLetterError: string | undefined;
  /** Wins refused because they do not match the event they must come from: never sent. */
  readonly refused: readonly StrayWin<WinRefusalReason>[];
  /** Bets and betwins refused because they do not match their round's RoundStarted: never sent. */
  readonly refusedStakes: readonly RefusedStake[];
  /** Wins dead-lettered here whose transactionId is already this stream's request: never sent under it. */
  readonly conflicts: readonly StrayWin<WinDeadLetterReason>[];
}

export const initialWalletTxState: WalletTxState = {
  status: 'new',
  request: undefined,
  attempts: 0,
  deliveryStartedAfter: 0,
  inFlight: false,
  balanceMinor: undefined,
  lastFailure: undefined,
  cancel: undefined,
  deadLetters: 0,
  deadLetteredAt: undefined,
  firstDeadLetteredAt: undefined,
  deadLetterReason: undefined,
  deadLetterError: undefined,
  refused: [],
  refusedStakes: [],
  conflicts: [],
};

/** Attempts made in the current delivery (the one a re-drive starts over). */
export function attemptsInDelivery(state: WalletTxState): number {
  return state.attempts - state.deliveryStartedAfter;
}

/** The outcome is recorded: a redelivered request is answered from the record. */
export function isSettled(state: WalletTxState): boolean {
  return state.status === 'succeeded' || state.status === 'failed' || state.status === 'dead_lettered';
}
