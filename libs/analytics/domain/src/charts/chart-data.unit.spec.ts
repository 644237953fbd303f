import { describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '@reelstream/contracts';
import type { LogEvent } from '../log-index.js';
import { ChartFold } from './chart-data.js';

const AT = '2026-01-01T00:00:00.000Z';
const entry = (streamId: string, event: unknown): LogEvent => ({
  position: '1',
  streamId,
  category: undefined,
  occurredAt: AT,
  occurredAtMs: Date.parse(AT),
  operatorId: 'acme',
  event: event as DomainEvent,
});
const parties = { operatorId: 'acme', playerId: 'p1', providerId: 1, gameId: 101, currency: 'EUR', bonusId: 0 };

function round(fold: ChartFold, roundId: number, winMinor: number, more: Record<string, unknown> = {}): void {
  const data = {
    roundId,
    sessionToken: 't',
    ...parties,
    kind: 'paid',
    betMinor: 100,
    rtpProfile: 'standard',
    startedAt: AT,
    ...more,
  };
  fold.apply(entry(`round-${roundId}`, { type: 'RoundStarted', data }));
  fold.apply(
    entry(`round-${roundId}`, { type: 'RoundSettled', data: { roundId, outcome: {}, winMinor, settledAt: AT } }),
  );
}

describe('ChartFold', () => {
  it('measures RTP per game with a 95 % interval from the rounds’ spread, leaving streamer and free rounds out', () => {
    const fold = new ChartFold((gameId) => (gameId === 101 ? 0.96 : null));
    // win/bet of 0, 2, 0, 2: mean 1, sample variance 4/3
    [0, 200, 0, 200].forEach((win, i) => round(fold, i + 1, win));
    round(fold, 9, 5000, { rtpProfile: 'streamer' });
    round(fold, 10, 5000, { kind: 'free', bonusId: 3 });
    const [point, ...others] = fold.rtpPoints();
    expect(others).toEqual([]);
    const margin = (1.959964 * Math.sqrt(4 / 3)) / 2;
    expect(point).toMatchObject({
      gameId: 101,
      currency: 'EUR',
      rounds: 4,
      measuredRtp: 1,
      targetRtp: 0.96,
      lowRtp: 0,
    });
    expect(point?.highRtp).toBeCloseTo(1 + margin, 10);
  });

  it('times each wallet attempt to its answer, per operator and the command attempted', () => {
    const fold = new ChartFold(() => null);
    const request = {
      command: 'bet',
      transactionId: 5,
      ...parties,
      roundId: 1,
      requestedAt: AT,
      amountMinor: 100,
      isBonusBusy: false,
    };
    const at = (ms: number) => new Date(Date.parse(AT) + ms).toISOString();
    fold.apply(
      entry('walletTx-5', {
        type: 'WalletRequested',
        data: { transactionId: 5, operatorId: 'acme', command: 'bet', request, requestedAt: AT },
      }),
    );
    fold.apply(entry('walletTx-5', { type: 'WalletAttempted', data: { attempt: 1, at: at(0) } }));
    fold.apply(
      entry('walletTx-5', { type: 'WalletFailed', data: { error: 'timeout', attempt: 1, final: true, at: at(3000) } }),
    );
    fold.apply(entry('walletTx-5', { type: 'WalletAttempted', data: { attempt: 1, command: 'cancel', at: at(3100) } }));
    fold.apply(
      entry('walletTx-5', {
        type: 'WalletSucceeded',
        data: { statusCode: 'OK', balanceMinor: 0, command: 'cancel', at: at(3142) },
      }),
    );
    expect(fold.latencySeries()).toEqual([
      { operatorId: 'acme', command: 'bet', latenciesMs: [3000] },
      { operatorId: 'acme', command: 'cancel', latenciesMs: [42] },
    ]);
  });
});
