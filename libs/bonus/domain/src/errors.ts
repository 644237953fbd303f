/**
 * A refused command, as a value: `decide` returns it instead of throwing, with a code from the
 * one error catalogue (the gateway alone maps it to an HTTP status).
 */
import { defaultMessageOf, type ErrorCode, type ErrorDetail } from '@reelstream/contracts';

export interface DomainError {
  readonly type: 'DomainError';
  readonly code: ErrorCode;
  readonly message: string;
  /** One entry per problem, as the API answers them (the gateway and the ledger give the same). */
  readonly details?: readonly ErrorDetail[];
}

export function domainError(
  code: ErrorCode,
  message: string = defaultMessageOf(code),
  details?: readonly ErrorDetail[],
): DomainError {
  return details === undefined
    ? { type: 'DomainError', code, message }
    : { type: 'DomainError', code, message, details };
}

export function isDomainError(value: unknown): value is DomainError {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DomainError';
}
