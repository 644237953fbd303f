/**
 * The callback a wallet request becomes (spec §6, D7, D9, D22): amounts from minor units to
 * currency units, `gameCode` from the gameId, `timestamp` in Unix seconds of the request's time.
 * The timestamp is the request's, not the attempt's: every attempt of a transaction carries the
 * same body, so the operator sees a retry as the same transaction.
 */
import type { BetwinCallback, CallbackRequest, CancelCallback, WalletRequest } from '@reelstream/contracts';
import { formatAmount } from '@reelstream/money';

export function unixSecondsOf(isoInstant: string): number {
  const ms = Date.parse(isoInstant);
  if (Number.isNaN(ms)) throw new RangeError(`not an ISO-8601 instant: ${isoInstant}`);
  return Math.floor(ms / 1_000);
}

export function callbackFor(request: WalletRequest): CallbackRequest {
  const common = {
    transactionId: request.transactionId,
    playerId: request.playerId,
    roundId: request.roundId,
    providerId: request.providerId,
    gameCode: request.gameId,
    bonusId: request.bonusId,
    timestamp: unixSecondsOf(request.requestedAt),
  };
  switch (request.command) {
    case 'bet':
      return {
        command: 'bet',
        ...common,
        currency: request.currency,
        amount: formatAmount(request.amountMinor, request.currency),
        isBonusBusy: request.isBonusBusy,
      };
    case 'win':
      return {
        command: 'win',
        ...common,
        amount: formatAmount(request.amountMinor, request.currency),
        isRoundFinished: request.isRoundFinished,
      };
    case 'betwin': {
      const body: BetwinCallback = {
        command: 'betwin',
        ...common,
        betAmount: formatAmount(request.betMinor, request.currency),
        winAmount: formatAmount(request.winMinor, request.currency),
      };
      return body;
    }
    default: {
      const unreachable: never = request;
      return unreachable;
    }
  }
}

/**
 * What a cancel carries (D9 amended): what the reverted transaction moved, so the
 * operator reverses all of it — a bet's stake as `amount`; a betwin's stake and win as
 * `betAmount` and `winAmount` (the stake given back, the win taken back).
 */
function cancelAmountsOf(request: WalletRequest): { amount: number } | { betAmount: number; winAmount: number } {
  switch (request.command) {
    case 'bet':
      return { amount: formatAmount(request.amountMinor, request.currency) };
    case 'betwin':
      return {
        betAmount: formatAmount(request.betMinor, request.currency),
        winAmount: formatAmount(request.winMinor, request.currency),
      };
    case 'win':
      throw new RangeError(
        `a win (transaction ${request.transactionId}) is never canceled: it is retried and dead-lettered (D11)`,
      );
    default: {
      const unreachable: never = request;
      return unreachable;
    }
  }
}

/** D9: {command, transactionId (its own), refTransactionId, playerId, roundId, providerId, gameCode, amount | betAmount+winAmount, bonusId, timestamp}. */
export function cancelCallbackFor(
  request: WalletRequest,
  cancel: { cancelTransactionId: number; requestedAt: string },
): CancelCallback {
  const common = {
    command: 'cancel' as const,
    transactionId: cancel.cancelTransactionId,
    refTransactionId: request.transactionId,
    playerId: request.playerId,
    roundId: request.roundId,
    providerId: request.providerId,
    gameCode: request.gameId,
  };
  const tail = { bonusId: request.bonusId, timestamp: unixSecondsOf(cancel.requestedAt) };
  return { ...common, ...cancelAmountsOf(request), ...tail };
}
