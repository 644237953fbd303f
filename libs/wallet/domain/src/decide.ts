/**
 * decide(command, state) for a `walletTx` stream: which events record the next step of a
 * delivery. `[]` means "already recorded" (a redelivered request); a refusal is a value.
 */
import type { WalletTxEvent } from '@reelstream/contracts';
import { describeAnswer, isOk, type OperatorAnswer } from './answer.js';
import type { WalletTxCommand } from './commands.js';
import { walletRefusal, type WalletRefusal } from './errors.js';
import { deadlineOf, pastSendWindow } from './deadline.js';
import { deliveryPolicyFor } from './policy.js';
import { identicalRequest, sameRequest } from './same-request.js';
import { evolve } from './evolve.js';
import { attemptsInDelivery, initialWalletTxState, isSettled, type WalletTxState } from './state.js';

const clip = (text: string) => (text.length > 1_000 ? `${text.slice(0, 999)}…` : text);

type WalletFailedData = Extract<WalletTxEvent, { type: 'WalletFailed' }>['data'];

/** The balance a reply carried, and the number as sent when it was rounded to minor units. */
function balanceFields(answer: Extract<OperatorAnswer, { kind: 'reply' }>): {
  balanceMinor: number;
  balanceSent?: number;
} {
  return answer.balanceSent === undefined
    ? { balanceMinor: answer.balanceMinor }
    : { balanceMinor: answer.balanceMinor, balanceSent: answer.balanceSent };
}

function failureFields(
  answer: OperatorAnswer,
): Pick<WalletFailedData, 'statusCode' | 'error' | 'balanceMinor' | 'balanceSent'> {
  if (answer.kind === 'reply' && answer.statusCode !== 'OK')
    return { statusCode: answer.statusCode, ...balanceFields(answer) };
  return { error: describeAnswer(answer) };
}

/** Whether recording `answer` ends the delivery with a cancel: the dispatcher then draws the cancel's transactionId. */
export function needsCancelTransactionId(state: WalletTxState, answer: OperatorAnswer): boolean {
  if (!state.request || !state.inFlight || isOk(answer)) return false;
  const policy = deliveryPolicyFor(state.request.command);
  return policy.onFinalFailure === 'cancel' && attemptsInDelivery(state) >= policy.maxAttempts;
}

// Long because: one case per wallet-transaction command in one exhaustive switch, so the compiler checks that every
// command is decided.
export function decide(command: WalletTxCommand, state: WalletTxState): WalletTxEvent[] | WalletRefusal {
  const at = command.metadata.now;
  const { request } = state;
  switch (command.type) {
    case 'RecordRequest': {
      const incoming = command.data.request;
      if (!request) {
        return [
          {
            type: 'WalletRequested',
            data: {
              transactionId: incoming.transactionId,
              operatorId: incoming.operatorId,
              command: incoming.command,
              request: incoming,
              requestedAt: incoming.requestedAt,
            },
          },
        ];
      }
      if (sameRequest(request, incoming)) return [];
      return walletRefusal(
        'TRANSACTION_ID_CONFLICT',
        `transactionId ${incoming.transactionId} is already a ${request.command} of player ${request.playerId} with other fields`,
      );
    }
    case 'StartAttempt': {
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (isSettled(state))
        return walletRefusal('WALLET_TX_SETTLED', `transaction ${request.transactionId} is already ${state.status}`);
      if (state.inFlight) return [{ type: 'WalletAttempted', data: { attempt: state.attempts, at, recovery: true } }];
      const policy = deliveryPolicyFor(request.command);
      if (attemptsInDelivery(state) >= policy.maxAttempts) {
        return walletRefusal(
          'WALLET_ATTEMPTS_EXHAUSTED',
          `transaction ${request.transactionId} has had its ${policy.maxAttempts} attempt(s)`,
        );
      }
      return [{ type: 'WalletAttempted', data: { attempt: state.attempts + 1, at } }];
    }
    case 'StartRedrive': {
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (state.status !== 'dead_lettered')
        return walletRefusal(
          'WALLET_TX_NOT_DEAD_LETTERED',
          `transaction ${request.transactionId} is ${state.status}, not dead-lettered`,
        );
      const scheduled = command.data.scheduled === true ? { scheduled: true } : {};
      return [{ type: 'WalletAttempted', data: { attempt: state.attempts + 1, at, redrive: true, ...scheduled } }];
    }
    case 'RecordAnswer': {
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (!state.inFlight)
        return walletRefusal(
          'WALLET_NO_ATTEMPT_IN_FLIGHT',
          `transaction ${request.transactionId} has no attempt waiting for its outcome`,
        );
      const { answer, cancelTransactionId } = command.data;
      if (isOk(answer)) return [{ type: 'WalletSucceeded', data: { statusCode: 'OK', ...balanceFields(answer), at } }];
      const policy = deliveryPolicyFor(request.command);
      const final = attemptsInDelivery(state) >= policy.maxAttempts;
      const failed: WalletTxEvent = {
        type: 'WalletFailed',
        data: { ...failureFields(answer), attempt: state.attempts, final, at },
      };
      if (!final) return [failed];
      if (policy.onFinalFailure === 'dead_letter') {
        return [
          failed,
          {
            type: 'WinDeadLettered',
            data: { attempts: state.attempts, lastError: describeAnswer(answer), at, reason: 'delivery_failed' },
          },
        ];
      }
      if (cancelTransactionId === undefined)
        return walletRefusal(
          'WALLET_CANCEL_ID_MISSING',
          `the failed ${request.command} ${request.transactionId} needs a cancel with its own transactionId (D9)`,
        );
      return [
        failed,
        { type: 'CancelRequested', data: { cancelTransactionId, refTransactionId: request.transactionId, at } },
      ];
    }
    case 'ExpireRequest': {
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (isSettled(state)) return [];
      // An attempt in flight may have reached the operator: its outcome is recorded (RecordAnswer), not replaced.
      if (state.inFlight)
        return walletRefusal(
          'WALLET_DEADLINE_NOT_PASSED',
          `transaction ${request.transactionId} has an attempt in flight: its answer is recorded instead`,
        );
      const deadline = deadlineOf(request);
      if (
        !pastSendWindow(request, at) ||
        // Stryker disable next-line ConditionalExpression: false is equivalent: only a request with a deadline is past its send window; the check narrows deadline's type
        deadline === undefined
      )
        return walletRefusal(
          'WALLET_DEADLINE_NOT_PASSED',
          `transaction ${request.transactionId} is within its deadline (${deadline ?? 'none'}) at ${at}`,
        );
      const { cancelTransactionId } = command.data;
      return [
        {
          type: 'WalletFailed',
          data: {
            error: `timeout: not sent, its deadline ${deadline} had passed when the dispatcher took it at ${at}`,
            attempt: 0,
            final: true,
            at,
          },
        },
        { type: 'CancelRequested', data: { cancelTransactionId, refTransactionId: request.transactionId, at } },
      ];
    }
    case 'AbandonStake': {
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (request.command === 'win')
        return walletRefusal(
          'WALLET_TX_NOT_A_STAKE',
          `transaction ${request.transactionId} is a win: a win that cannot be handled is dead-lettered (D11)`,
        );
      if (isSettled(state)) return [];
      const { cancelTransactionId, error } = command.data;
      return [
        {
          type: 'WalletFailed',
          data: { error: clip(`abandoned: ${error}`), attempt: state.attempts, final: true, at },
        },
        { type: 'CancelRequested', data: { cancelTransactionId, refTransactionId: request.transactionId, at } },
      ];
    }
    case 'StartCancelAttempt': {
      const { cancel } = state;
      if (!cancel || cancel.succeeded)
        return walletRefusal('WALLET_NO_CANCEL_PENDING', 'no cancel is waiting for delivery');
      if (cancel.inFlight)
        return [{ type: 'WalletAttempted', data: { attempt: cancel.attempts, command: 'cancel', at, recovery: true } }];
      return [{ type: 'WalletAttempted', data: { attempt: cancel.attempts + 1, command: 'cancel', at } }];
    }
    case 'RecordCancelAnswer': {
      const { cancel } = state;
      if (!cancel) return walletRefusal('WALLET_NO_CANCEL_PENDING', 'no cancel was requested');
      if (cancel.succeeded) return [];
      if (!cancel.inFlight)
        return walletRefusal('WALLET_NO_ATTEMPT_IN_FLIGHT', 'no cancel attempt is waiting for its outcome');
      const { answer } = command.data;
      if (isOk(answer)) return [{ type: 'CancelSucceeded', data: { at, ...balanceFields(answer) } }];
      return [
        {
          type: 'WalletFailed',
          data: { ...failureFields(answer), attempt: cancel.attempts, final: false, command: 'cancel', at },
        },
      ];
    }
    case 'DeadLetterWin': {
      const { reason, detail } = command.data;
      const lastError = clip(detail);
      const stray = command.data.request;
      if (stray && !(request && sameRequest(request, stray))) {
        if (state.conflicts.some((conflict) => sameRequest(conflict.request, stray))) return [];
        return [{ type: 'WinDeadLettered', data: { attempts: 0, lastError, at, reason, request: stray } }];
      }
      if (!request) return walletRefusal('WALLET_TX_NOT_RECORDED', 'no request is recorded for this transaction');
      if (request.command !== 'win')
        return walletRefusal(
          'WALLET_TX_NOT_A_WIN',
          `transaction ${request.transactionId} is a ${request.command}: only wins are dead-lettered (D11)`,
        );
      if (state.status === 'dead_lettered') return [];
      if (state.status === 'succeeded')
        return walletRefusal('WALLET_TX_SETTLED', `transaction ${request.transactionId} is already succeeded`);
      return [{ type: 'WinDeadLettered', data: { attempts: state.attempts, lastError, at, reason } }];
    }
    case 'RefuseWin': {
      const { request: refused, reason, detail } = command.data;
      if (state.refused.some((earlier) => identicalRequest(earlier.request, refused))) return [];
      return [{ type: 'WinRefused', data: { request: refused, reason, detail: clip(detail), at } }];
    }
    case 'RefuseStake': {
      const { request: refused, reason, detail } = command.data;
      if (state.refusedStakes.some((earlier) => identicalRequest(earlier.request, refused))) return [];
      return [{ type: 'StakeRefused', data: { request: refused, reason, detail: clip(detail), at } }];
    }
    default: {
      const unreachable: never = command;
      return unreachable;
    }
  }
}

/**
 * The decider of a `walletTx` stream as one value: what the command handler and the tests take
 * (the `Decider` shape of @reelstream/platform-eventsourcing, matched structurally).
 */
export const walletTxDecider = { initialState: initialWalletTxState, evolve, decide } as const;
