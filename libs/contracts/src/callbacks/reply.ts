/**
 * The operator's answer to a callback (spec §6, §7): HTTP 200 with `{balance, statusCode}`.
 * Anything else the dispatcher treats as ERR_UNKNOWN, with the reason kept for the record.
 */
import * as z from 'zod';
import type { CallbackCommand } from './requests.js';

export const CALLBACK_STATUS_CODES = [
  'OK',
  'ERR_NOT_AUTHENTICATED',
  'ERR_NOT_ENOUGH_MONEY',
  'ERR_INTEGRITY_CHECK_FAILED',
  'ERR_UNKNOWN',
] as const;
export const callbackStatusCode = z.enum(CALLBACK_STATUS_CODES);
export type CallbackStatusCode = z.infer<typeof callbackStatusCode>;

/**
 * Which status codes an operator may answer to which command (spec §7's table). `cancel` is not in
 * the table; decisions.md D9 has the operator answer OK for an unknown or already canceled transaction,
 * so a cancel is never short of money: every other code is a failure and the cancel is retried.
 */
export const CallbackStatusCodesByCommand = {
  bet: ['OK', 'ERR_NOT_AUTHENTICATED', 'ERR_NOT_ENOUGH_MONEY', 'ERR_INTEGRITY_CHECK_FAILED', 'ERR_UNKNOWN'],
  win: ['OK', 'ERR_NOT_AUTHENTICATED', 'ERR_INTEGRITY_CHECK_FAILED', 'ERR_UNKNOWN'],
  betwin: ['OK', 'ERR_NOT_AUTHENTICATED', 'ERR_NOT_ENOUGH_MONEY', 'ERR_INTEGRITY_CHECK_FAILED', 'ERR_UNKNOWN'],
  cancel: ['OK', 'ERR_NOT_AUTHENTICATED', 'ERR_INTEGRITY_CHECK_FAILED', 'ERR_UNKNOWN'],
} as const satisfies Record<CallbackCommand, readonly CallbackStatusCode[]>;

export function isStatusCodeAllowed(command: CallbackCommand, statusCode: CallbackStatusCode): boolean {
  return (CallbackStatusCodesByCommand[command] as readonly CallbackStatusCode[]).includes(statusCode);
}

/**
 * The reply body. Extra keys are ignored (operators add their own); balance is in currency units,
 * any finite number (the dispatcher rounds it half to even to the currency's minor units).
 */
export const operatorReply = z.object({
  balance: z.number({ error: 'balance must be a finite JSON number' }).meta({
    description:
      'The balance after the operation in currency units: any finite JSON number, rounded half to even to the currency’s minor units by reelstream (99.89999999999999 EUR is 99.90).',
  }),
  statusCode: callbackStatusCode,
});

export type ParsedOperatorReply =
  | { valid: true; statusCode: CallbackStatusCode; balance: number }
  | { valid: false; statusCode: 'ERR_UNKNOWN'; balance: null; reason: string };

/**
 * The reply as the dispatcher acts on it. A body that is not `{balance, statusCode}` with a
 * known code, or a code the spec does not allow for `command`, becomes ERR_UNKNOWN with the
 * reason: for bet and betwin that cancels the round, for win it is retried.
 */
export function parseOperatorReply(value: unknown, command?: CallbackCommand): ParsedOperatorReply {
  const result = operatorReply.safeParse(value);
  if (!result.success) {
    const reason = result.error.issues
      .map((issue) => `${issue.path.length > 0 ? `${issue.path.join('.')}: ` : ''}${issue.message}`)
      .join('; ');
    return { valid: false, statusCode: 'ERR_UNKNOWN', balance: null, reason: `malformed operator reply: ${reason}` };
  }
  const { statusCode, balance } = result.data;
  if (command !== undefined && !isStatusCodeAllowed(command, statusCode)) {
    return {
      valid: false,
      statusCode: 'ERR_UNKNOWN',
      balance: null,
      reason: `status code ${statusCode} is not a valid answer to ${command}`,
    };
  }
  return { valid: true, statusCode, balance };
}

/** As `parseOperatorReply`, from the raw response text: text that is not JSON is ERR_UNKNOWN too. */
export function parseOperatorReplyText(text: string, command?: CallbackCommand): ParsedOperatorReply {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const preview = text.length > 80 ? `${text.slice(0, 80)}…` : text;
    return {
      valid: false,
      statusCode: 'ERR_UNKNOWN',
      balance: null,
      reason: `operator reply is not JSON: ${JSON.stringify(preview)}`,
    };
  }
  return parseOperatorReply(value, command);
}
