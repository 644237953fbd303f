import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { deterministicEventId } from '../src/index.js';

describe('deterministic event ids', () => {
  it('are RFC 9562 UUIDs, equal for the same append and different for any other', () => {
    const id = deterministicEventId('walletTx-101', 0, 0, 'WalletAttempted', { attempt: 1 });
    expect(z.uuid().safeParse(id).success).toBe(true);
    expect(deterministicEventId('walletTx-101', 0, 0, 'WalletAttempted', { attempt: 1 })).toBe(id);
    expect(
      new Set([
        id,
        deterministicEventId('walletTx-102', 0, 0, 'WalletAttempted', { attempt: 1 }),
        deterministicEventId('walletTx-101', 1, 0, 'WalletAttempted', { attempt: 1 }),
        deterministicEventId('walletTx-101', 0, 1, 'WalletAttempted', { attempt: 1 }),
        deterministicEventId('walletTx-101', 0, 0, 'WalletAttempted', { attempt: 2 }),
        deterministicEventId('walletTx-101', 'no_stream', 0, 'WalletAttempted', { attempt: 1 }),
      ]).size,
    ).toBe(6);
  });
});
