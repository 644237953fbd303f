import { describe, expect, it } from '@jest/globals';
import { parseEvent } from './upcasting.js';

const at = '2026-05-01T10:00:00.000Z';

describe('walletTx events: fields the dispatcher records beyond v1’s first cut (append-only)', () => {
  it('WalletAttempted may say it re-sends an attempt whose outcome a crash lost, or starts a re-drive', () => {
    expect(parseEvent('WalletAttempted', { attempt: 1, at, recovery: true }, 1)).toEqual({
      type: 'WalletAttempted',
      data: { attempt: 1, at, recovery: true },
    });
    expect(parseEvent('WalletAttempted', { attempt: 4, at, redrive: true }, 1)).toEqual({
      type: 'WalletAttempted',
      data: { attempt: 4, at, redrive: true },
    });
    expect(parseEvent('WalletAttempted', { attempt: 2, command: 'cancel', at }, 1)).toEqual({
      type: 'WalletAttempted',
      data: { attempt: 2, command: 'cancel', at },
    });
    expect(() => parseEvent('WalletAttempted', { attempt: 1, at, recovery: 'yes' }, 1)).toThrow(/recovery/);
  });

  it('CancelSucceeded may carry the balance the operator answered with, in whole minor units', () => {
    expect(parseEvent('CancelSucceeded', { at, balanceMinor: 1250 }, 1)).toEqual({
      type: 'CancelSucceeded',
      data: { at, balanceMinor: 1250 },
    });
    expect(parseEvent('CancelSucceeded', { at }, 1)).toEqual({ type: 'CancelSucceeded', data: { at } });
    expect(() => parseEvent('CancelSucceeded', { at, balanceMinor: 12.5 }, 1)).toThrow(/balanceMinor/);
  });

  it('WalletFailed may carry the balance that came with the operator’s non-OK code', () => {
    const data = { statusCode: 'ERR_NOT_ENOUGH_MONEY', balanceMinor: 40, attempt: 1, final: true, command: 'bet', at };
    expect(parseEvent('WalletFailed', data, 1)).toEqual({ type: 'WalletFailed', data });
    expect(() => parseEvent('WalletFailed', { ...data, balanceMinor: '40' }, 1)).toThrow(/balanceMinor/);
  });
});
