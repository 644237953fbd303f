import { describe, expect, it } from '@jest/globals';
import {
  InvalidEventDataError,
  ReelstreamError,
  UnknownEventTypeError,
  UnsupportedSchemaVersionError,
} from '@reelstream/contracts';
import { DuplicateEventIdError, RequestTimeoutError, WrongExpectedRevisionError } from '@reelstream/platform-ports';
import { walletRefusal } from '@reelstream/wallet-domain';
import { isDeterministicFailure } from '../src/failures.js';
import { OperatorUnavailableError } from '../src/deliver.js';
import { WalletDecisionRefused } from '../src/wallet-tx-repository.js';

describe('isDeterministicFailure: park or retry, by the retriable flag', () => {
  it.each([
    new UnknownEventTypeError('Nope'),
    new UnsupportedSchemaVersionError('WalletRequested', 9, 1),
    new InvalidEventDataError('WalletRequested', 1, []),
    ReelstreamError.from(walletRefusal('WALLET_TX_SETTLED', 'transaction 5 is already succeeded')),
    new WalletDecisionRefused(5, walletRefusal('WALLET_TX_SETTLED', 'transaction 5 is already succeeded')),
    new DuplicateEventIdError('e-1', 'walletTx-5', 'walletTx-4', 0),
  ])('parks %s: the same message fails the same way every time', (error) => {
    expect(isDeterministicFailure(error)).toBe(true);
  });

  it.each([
    new Error('SQLITE_BUSY: database is locked'),
    new RequestTimeoutError('bonus.requests', 'c-1', 3_000),
    new OperatorUnavailableError('demo', 5, 'circuit open', 1_000),
    new WrongExpectedRevisionError('walletTx-5', 2, 3),
    Object.assign(new Error('a foreign error shaped like ours'), { retriable: false }),
    'a thrown string',
  ])('retries %s: it may pass next time', (error) => {
    expect(isDeterministicFailure(error)).toBe(false);
  });
});
