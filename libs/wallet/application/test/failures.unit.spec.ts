import { describe, expect, it } from '@jest/globals';
import {
  InvalidEventDataError,
  RefusedError,
  UnknownEventTypeError,
  UnsupportedSchemaVersionError,
} from '@reelstream/contracts';
import { DuplicateEventIdError, RequestTimeoutError, WrongExpectedRevisionError } from '@reelstream/platform-ports';
import { walletRefusal } from '@reelstream/wallet-domain';
import { asError, givesUp, isDeterministicFailure, UNCLASSIFIED_FAILURE_ATTEMPTS } from '../src/failures.js';
import { OperatorUnavailableError } from '../src/deliver.js';
import { WalletDecisionRefused } from '../src/wallet-tx-repository.js';

describe('isDeterministicFailure: park or retry, by the retriable flag', () => {
  it.each([
    new UnknownEventTypeError('Nope'),
    new UnsupportedSchemaVersionError('WalletRequested', 9, 1),
    new InvalidEventDataError('WalletRequested', 1, []),
    RefusedError.from(walletRefusal('WALLET_TX_SETTLED', 'transaction 5 is already succeeded')),
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

describe('givesUp: when a handler records a failure instead of retrying it', () => {
  const permanent = new WalletDecisionRefused(
    5,
    walletRefusal('WALLET_TX_SETTLED', 'transaction 5 is already succeeded'),
  );
  const transient = new RequestTimeoutError('bonus.requests', 'c-1', 3_000);

  it('gives a non-retriable ReelstreamError up at once', () => {
    expect(givesUp(permanent, 1)).toBe(true);
  });

  it('never gives a retriable one up, however often it failed', () => {
    expect(givesUp(transient, UNCLASSIFIED_FAILURE_ATTEMPTS)).toBe(false);
    expect(givesUp(transient, Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it.each([new TypeError('x is undefined'), new Error('SQLITE_BUSY: database is locked'), 'a thrown string'])(
    'gives %s up on its tenth attempt, not before',
    (error) => {
      expect(UNCLASSIFIED_FAILURE_ATTEMPTS).toBe(10);
      expect(givesUp(error, UNCLASSIFIED_FAILURE_ATTEMPTS - 1)).toBe(false);
      expect(givesUp(error, UNCLASSIFIED_FAILURE_ATTEMPTS)).toBe(true);
    },
  );

  it('records a thrown non-Error by its text', () => {
    const error = new TypeError('x');
    expect(asError(error)).toBe(error);
    expect(asError('a thrown string')).toEqual(new Error('a thrown string'));
  });
});
