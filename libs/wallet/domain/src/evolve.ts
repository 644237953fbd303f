/**
 * evolve(state, event) for a `walletTx` stream. Events about the cancel carry `command: 'cancel'`;
 * the others are about the stream's own transaction.
 */
import type { WalletTxEvent } from '@reelstream/contracts';
import { sameRequest } from './same-request.js';
import type { CancelState, WalletTxState } from './state.js';

function updateCancel(state: WalletTxState, change: (cancel: CancelState) => CancelState): WalletTxState {
  // Cancel events only follow CancelRequested; a stream that says otherwise keeps its state.
  return state.cancel ? { ...state, cancel: change(state.cancel) } : state;
}

// Long because: one case per wallet-transaction event in one exhaustive switch, so the compiler checks that every event
// type is folded.
export function evolve(state: WalletTxState, event: WalletTxEvent): WalletTxState {
  switch (event.type) {
    case 'WalletRequested':
      return { ...state, status: 'pending', request: event.data.request };
    case 'WalletAttempted': {
      const { data } = event;
      if (data.command === 'cancel')
        return updateCancel(state, (cancel) => ({
          ...cancel,
          attempts: Math.max(cancel.attempts, data.attempt),
          inFlight: true,
        }));
      // An attempt after a dead letter is a re-drive: a new delivery with its own attempts.
      const redriven = state.status === 'dead_lettered';
      return {
        ...state,
        status: 'pending',
        deliveryStartedAfter: redriven ? state.attempts : state.deliveryStartedAfter,
        attempts: Math.max(state.attempts, data.attempt),
        inFlight: true,
      };
    }
    case 'WalletSucceeded':
      if (event.data.command === 'cancel')
        return updateCancel(state, (cancel) => ({
          ...cancel,
          inFlight: false,
          succeeded: true,
          balanceMinor: event.data.balanceMinor,
        }));
      return {
        ...state,
        status: 'succeeded',
        inFlight: false,
        balanceMinor: event.data.balanceMinor,
        lastFailure: undefined,
      };
    case 'WalletFailed': {
      const { data } = event;
      const reason = data.error ?? data.statusCode ?? 'failed';
      if (data.command === 'cancel')
        return updateCancel(state, (cancel) => ({ ...cancel, inFlight: false, lastError: reason }));
      return {
        ...state,
        status: data.final ? 'failed' : 'pending',
        inFlight: false,
        lastFailure: { statusCode: data.statusCode ?? 'ERR_UNKNOWN', reason },
      };
    }
    case 'CancelRequested':
      return {
        ...state,
        cancel: {
          cancelTransactionId: event.data.cancelTransactionId,
          requestedAt: event.data.at,
          attempts: 0,
          inFlight: false,
          succeeded: false,
          balanceMinor: undefined,
          lastError: undefined,
        },
      };
    case 'CancelSucceeded':
      return updateCancel(state, (cancel) => ({
        ...cancel,
        inFlight: false,
        succeeded: true,
        balanceMinor: event.data.balanceMinor,
      }));
    case 'WinDeadLettered': {
      const { data } = event;
      const reason = data.reason ?? 'delivery_failed';
      if (data.request && !(state.request && sameRequest(state.request, data.request))) {
        return {
          ...state,
          conflicts: [...state.conflicts, { request: data.request, reason, detail: data.lastError, at: data.at }],
        };
      }
      return {
        ...state,
        status: 'dead_lettered',
        inFlight: false,
        deadLetters: state.deadLetters + 1,
        deadLetteredAt: data.at,
        firstDeadLetteredAt: state.firstDeadLetteredAt ?? data.at,
        deadLetterReason: reason,
        deadLetterError: data.lastError,
      };
    }
    case 'WinRefused':
      return {
        ...state,
        refused: [
          ...state.refused,
          { request: event.data.request, reason: event.data.reason, detail: event.data.detail, at: event.data.at },
        ],
      };
    case 'StakeRefused':
      return {
        ...state,
        refusedStakes: [
          ...state.refusedStakes,
          { request: event.data.request, reason: event.data.reason, detail: event.data.detail, at: event.data.at },
        ],
      };
    default: {
      const unreachable: never = event;
      return unreachable;
    }
  }
}
