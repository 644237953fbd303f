import { describe, expect, it } from '@jest/globals';
import { LedgerTimeoutError } from '@reelstream/bonus-client';
import { ApiError, ledgerTimeoutAsApiError } from '../src/index.js';

describe('ledgerTimeoutAsApiError', () => {
  it('answers a ledger timeout 503 SERVICE_UNAVAILABLE with Retry-After from the time limit and the hint', () => {
    const answer = ledgerTimeoutAsApiError(new LedgerTimeoutError('RegisterBonusCall', 2_500), 'retry later.');
    expect(answer).toBeInstanceOf(ApiError);
    expect(answer).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      status: 503,
      message: 'The bonus service did not answer in time; retry later.',
      headers: { 'Retry-After': '3' },
    });
    expect(ledgerTimeoutAsApiError(new LedgerTimeoutError('GetActiveBonus', 200), 'x')).toMatchObject({
      headers: { 'Retry-After': '1' },
    });
  });

  it('takes a Retry-After of its own when given', () => {
    expect(ledgerTimeoutAsApiError(new LedgerTimeoutError('GetActiveBonus', 5_000), 'x', 2)).toMatchObject({
      headers: { 'Retry-After': '2' },
    });
  });

  it('returns any other error unchanged', () => {
    const other = new Error('bus closed');
    expect(ledgerTimeoutAsApiError(other, 'x')).toBe(other);
    const refusal = new ApiError('BONUS_NOT_FOUND');
    expect(ledgerTimeoutAsApiError(refusal, 'x')).toBe(refusal);
  });
});
