import type { WalletBetRequest, WalletBetwinRequest, WalletTxEvent, WalletWinRequest } from '@reelstream/contracts';
import { sampleBetRequest } from '@reelstream/testing';
import { evolve, initialWalletTxState, type WalletTxState } from '../src/index.js';

export const now = '2026-05-01T10:00:05.000Z';
export const metadata = { now };

export const bet: WalletBetRequest = sampleBetRequest();
// The fields every request of the round shares.
const { command: _bet, amountMinor: _stake, isBonusBusy: _busy, ...common } = bet;
export const win: WalletWinRequest = {
  command: 'win',
  ...common,
  transactionId: 102,
  amountMinor: 400,
  isRoundFinished: true,
};
export const betwin: WalletBetwinRequest = {
  command: 'betwin',
  ...common,
  transactionId: 103,
  betMinor: 100,
  winMinor: 250,
};

export function stateOf(events: readonly WalletTxEvent[]): WalletTxState {
  return events.reduce(evolve, initialWalletTxState);
}

export const requested = (request: WalletBetRequest | WalletWinRequest | WalletBetwinRequest): WalletTxEvent => ({
  type: 'WalletRequested',
  data: {
    transactionId: request.transactionId,
    operatorId: request.operatorId,
    command: request.command,
    request,
    requestedAt: request.requestedAt,
  },
});
export const attempted = (
  attempt: number,
  extra: Partial<{ recovery: boolean; redrive: boolean; scheduled: boolean; command: 'cancel' }> = {},
): WalletTxEvent => ({
  type: 'WalletAttempted',
  data: { attempt, at: now, ...extra },
});
export const failedWith = (
  attempt: number,
  final: boolean,
  error = 'timeout: no reply within 4000 ms',
): WalletTxEvent => ({
  type: 'WalletFailed',
  data: { error, attempt, final, at: now },
});

/** A win that names transactionId 102, already the recorded win's, with another amount (and the parties given): dead-lettered as a conflict. */
export const conflictOf = (
  parties: Partial<Pick<WalletWinRequest, 'operatorId' | 'playerId'>> = {},
): WalletTxEvent => ({
  type: 'WinDeadLettered',
  data: {
    attempts: 0,
    lastError: 'transactionId 102 is taken',
    at: now,
    reason: 'transaction_id_conflict',
    request: { ...win, amountMinor: 999, ...parties },
  },
});
