/**
 * What came back from one callback attempt. The adapter reports the operator's reply in currency
 * units, or why there was none; `answerFromCall` turns it into minor units of the transaction's
 * currency. The spec asks only that `balance` be a number, and a wallet that keeps balances as
 * binary floating point answers 99.89999999999999: any finite number is a balance, rounded half to
 * even to the currency's minor units, and the number as sent is kept beside it when it differs.
 */
import type { CallbackStatusCode } from '@reelstream/contracts';
import { tryParseAmount, tryRoundAmountHalfEven } from '@reelstream/money';

/**
 * Why an attempt got no usable reply. Each counts as ERR_UNKNOWN (spec §7). `unavailable`: not
 * sent at all — the operator's bulkhead is full or its circuit is open.
 */
type NoReplyCause = 'timeout' | 'network' | 'http_status' | 'malformed' | 'unavailable';

/** The port's result: a reply parsed with zod (balance in currency units), or none. */
export type OperatorCallResult =
  | { readonly kind: 'reply'; readonly statusCode: CallbackStatusCode; readonly balance: number }
  | {
      readonly kind: 'no_reply';
      readonly cause: NoReplyCause;
      readonly reason: string;
      readonly retryAfterMs?: number;
    };

export type OperatorAnswer =
  | {
      readonly kind: 'reply';
      readonly statusCode: CallbackStatusCode;
      readonly balanceMinor: number;
      /** The balance as the operator sent it, when it had more decimals than the currency (for the audit). */
      readonly balanceSent?: number;
    }
  | { readonly kind: 'no_reply'; readonly cause: NoReplyCause; readonly reason: string };

export type FailureStatusCode = Exclude<CallbackStatusCode, 'OK'>;

export function answerFromCall(result: OperatorCallResult, currency: string): OperatorAnswer {
  if (result.kind === 'no_reply') return { kind: 'no_reply', cause: result.cause, reason: result.reason };
  const balance = tryRoundAmountHalfEven(result.balance, currency);
  if (!balance.ok)
    return { kind: 'no_reply', cause: 'malformed', reason: `balance ${result.balance}: ${balance.error.message}` };
  return tryParseAmount(result.balance, currency).ok
    ? { kind: 'reply', statusCode: result.statusCode, balanceMinor: balance.minor }
    : { kind: 'reply', statusCode: result.statusCode, balanceMinor: balance.minor, balanceSent: result.balance };
}

export function isOk(
  answer: OperatorAnswer,
): answer is Extract<OperatorAnswer, { kind: 'reply' }> & { statusCode: 'OK' } {
  return answer.kind === 'reply' && answer.statusCode === 'OK';
}

/** The status code a failed attempt stands for: the operator's own, or ERR_UNKNOWN when it gave none. */
export function failureStatusCode(answer: OperatorAnswer): FailureStatusCode {
  return answer.kind === 'reply' && answer.statusCode !== 'OK' ? answer.statusCode : 'ERR_UNKNOWN';
}

/** One line for the record and the logs: `ERR_NOT_ENOUGH_MONEY`, `timeout: no reply within 3000 ms`. */
export function describeAnswer(answer: OperatorAnswer): string {
  const text = answer.kind === 'reply' ? answer.statusCode : `${answer.cause}: ${answer.reason}`;
  return text.length > 1_000 ? `${text.slice(0, 999)}…` : text;
}
