/**
 * What the dispatcher asks the walletTx decider. Time (`metadata.now`) and new ids (the cancel's
 * transactionId) come in with the command: the decider never reads a clock or a generator.
 */
import type { WalletRequest, WalletWinRequest, WinDeadLetterReason } from '@reelstream/contracts';
import type { OperatorAnswer } from './answer.js';
import type { StakeRefusalReason, StakeRequest, WinRefusalReason } from './state.js';

interface WalletCommandMetadata {
  /** ISO-8601 UTC instant the command is decided at. */
  readonly now: string;
}

interface Command<Type extends string, Data> {
  readonly type: Type;
  readonly data: Data;
  readonly metadata: WalletCommandMetadata;
}

/** A request from wallet.requests; a redelivery of the same request is accepted as already recorded. */
type RecordRequest = Command<'RecordRequest', { readonly request: WalletRequest }>;

/** Send the transaction's callback: the next attempt, or again the one whose outcome is unknown. */
type StartAttempt = Command<'StartAttempt', Record<string, never>>;

/** Start a new delivery of a dead-lettered win (D11); `scheduled` when the dispatcher's schedule asked, not a person. */
type StartRedrive = Command<'StartRedrive', { readonly scheduled?: boolean }>;

type RecordAnswer = Command<
  'RecordAnswer',
  {
    readonly answer: OperatorAnswer;
    /** Drawn by the dispatcher; required when the answer fails a bet or betwin for good (D9). */
    readonly cancelTransactionId?: number;
  }
>;

/**
 * Record a bet or betwin as timed out without sending it: its deadline left too little of its window
 * when the dispatcher took it. Its round is canceled like after a time-out (D9).
 */
type ExpireRequest = Command<'ExpireRequest', { readonly cancelTransactionId: number }>;

/**
 * Give up a bet or betwin its handler kept failing on with an error nothing classified (a bug, most
 * likely): whether it reached the operator is unknown, so it fails for good and its round is
 * canceled like after a time-out (D9).
 */
type AbandonStake = Command<'AbandonStake', { readonly cancelTransactionId: number; readonly error: string }>;

type StartCancelAttempt = Command<'StartCancelAttempt', Record<string, never>>;

type RecordCancelAnswer = Command<'RecordCancelAnswer', { readonly answer: OperatorAnswer }>;

/**
 * Park a win that will not be delivered now: the stream's own win (operator not
 * configured, a step the record refuses), or — with `request` — another win that names this
 * stream's transactionId. Either way it is listed and, when its own, re-driven.
 */
type DeadLetterWin = Command<
  'DeadLetterWin',
  { readonly reason: WinDeadLetterReason; readonly detail: string; readonly request?: WalletWinRequest }
>;

/** Record a win that does not match its source event: never sent. */
type RefuseWin = Command<
  'RefuseWin',
  { readonly request: WalletWinRequest; readonly reason: WinRefusalReason; readonly detail: string }
>;

/** Record a bet or betwin that does not match its round's RoundStarted: never sent. */
type RefuseStake = Command<
  'RefuseStake',
  { readonly request: StakeRequest; readonly reason: StakeRefusalReason; readonly detail: string }
>;

export type WalletTxCommand =
  | RecordRequest
  | StartAttempt
  | StartRedrive
  | RecordAnswer
  | ExpireRequest
  | AbandonStake
  | StartCancelAttempt
  | RecordCancelAnswer
  | DeadLetterWin
  | RefuseWin
  | RefuseStake;
