/**
 * A refused command, as a value: `decide` returns it instead of throwing, with a code from the
 * one error catalogue (the gateway alone maps it to an HTTP status).
 */
import { defaultMessageOf, type ErrorCode } from '@reelstream/contracts';

export interface DomainError {
  readonly type: 'DomainError';
  readonly code: ErrorCode;
  readonly message: string;
}

export function domainError(code: ErrorCode, message: string = defaultMessageOf(code)): DomainError {
  return { type: 'DomainError', code, message };
}

export function isDomainError(value: unknown): value is DomainError {
  return typeof value === 'object' && value !== null && (value as { type?: unknown }).type === 'DomainError';
}
