/**
 * One wallet transaction as its `walletTx` stream tells it, folded for the audit and the
 * reconciliation: what it asked the operator to move, whether the operator applied it, refused it,
 * or was never heard from, and the cancel that reverted it.
 */
import type { WalletRequest, WalletTxEvent } from '@reelstream/contracts';

/**
 * - `applied`: the operator answered OK;
 * - `refused`: it answered with an error code (nothing moved);
 * - `unknown`: no answer (time-out, network, HTTP error): the operator may or may not have it;
 * - `pending`: no outcome recorded yet;
 * - `not_sent`: dead-lettered or refused before any call.
 */
export type TransactionOutcome = 'applied' | 'refused' | 'unknown' | 'pending' | 'not_sent';

export interface WalletTransaction {
  readonly transactionId: number;
  readonly request: WalletRequest;
  /** The signed change to the player's balance the request asks for, in minor units. */
  readonly amountMinor: number;
  readonly outcome: TransactionOutcome;
  /** The operator's code, when it answered. */
  readonly statusCode: string | undefined;
  readonly deadLettered: boolean;
  readonly cancel: WalletCancel | undefined;
}

interface WalletCancel {
  readonly cancelTransactionId: number;
  /** `applied` once the operator answered OK; `pending` while it is being retried. */
  readonly outcome: 'applied' | 'pending';
}

/** The balance change a request asks for: a bet takes its stake, a win gives, a betwin does both. */
export function requestedChangeMinor(request: WalletRequest): number {
  switch (request.command) {
    case 'bet':
      return -request.amountMinor;
    case 'win':
      return request.amountMinor;
    case 'betwin':
      return request.winMinor - request.betMinor;
  }
}

/** The transaction of a `walletTx` stream, or undefined when it holds no request (only a refused win). */
export function foldWalletTransaction(events: readonly WalletTxEvent[]): WalletTransaction | undefined {
  let request: WalletRequest | undefined;
  let outcome: TransactionOutcome = 'pending';
  let statusCode: string | undefined;
  let deadLettered = false;
  let cancel: WalletCancel | undefined;
  for (const event of events) {
    // Attempts and outcomes of the cancel callback carry command 'cancel'; they are the cancel's, not the transaction's.
    const ofCancel = 'command' in event.data && event.data.command === 'cancel';
    switch (event.type) {
      case 'WalletRequested':
        request ??= event.data.request;
        break;
      case 'WalletSucceeded':
        if (!ofCancel) [outcome, statusCode] = ['applied', 'OK'];
        break;
      case 'WalletFailed':
        if (ofCancel) break;
        statusCode = event.data.statusCode;
        if (event.data.final) outcome = event.data.statusCode === undefined ? 'unknown' : 'refused';
        break;
      case 'WinDeadLettered':
        deadLettered = true;
        outcome = event.data.attempts === 0 ? 'not_sent' : statusCode === undefined ? 'unknown' : 'refused';
        break;
      case 'CancelRequested':
        cancel = { cancelTransactionId: event.data.cancelTransactionId, outcome: 'pending' };
        break;
      case 'CancelSucceeded':
        if (cancel) cancel = { ...cancel, outcome: 'applied' };
        break;
      default:
        break;
    }
  }
  if (!request) return undefined;
  return {
    transactionId: request.transactionId,
    request,
    amountMinor: requestedChangeMinor(request),
    outcome,
    statusCode,
    deadLettered,
    cancel,
  };
}
