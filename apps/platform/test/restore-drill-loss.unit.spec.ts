/**
 * The restore drill's sorting of reconcile.ts's problems (support/restore-drill-loss.ts): a wallet
 * transaction the restored log does not know is explained only when a lost event named it, and a
 * balance gap only when it is exactly what those transactions moved.
 */
import { describe, expect, it } from '@jest/globals';
import { explainLoss } from './support/restore-drill-loss.js';
import type { ReceivedCallback } from './support/reconcile.js';

const row = (transactionId: number, command: ReceivedCallback['command'], creditMinor: number, debitMinor = 0) =>
  `the wallet applied a transaction the event log does not account for: ${JSON.stringify({
    transactionId,
    command,
    playerId: 'p1',
    roundId: 7,
    debitMinor,
    creditMinor,
    refTransactionId: null,
    statusCode: 'OK',
    applied: true,
    canceledBy: null,
    bonusId: 0,
  })}`;

describe('restore drill: what the lost events explain', () => {
  it('explains the transactions the lost events named and the balance gap they make', () => {
    const explained = explainLoss(
      [row(11, 'bet', 0, 20), row(12, 'win', 50), "p1: the wallet's balance is 5030, the log says 5000"],
      new Set([11, 12]),
    );
    expect(explained).toEqual({ transactions: 2, netMinor: 30, unexplained: [] });
  });

  it('reports a transaction no lost event named, a gap of another size, and any other problem', () => {
    const explained = explainLoss(
      [row(11, 'win', 50), "p1: the wallet's balance is 5060, the log says 5000", 'round 7 (paid, p1) is still open'],
      new Set([12]),
    );
    expect(explained.unexplained).toEqual([
      row(11, 'win', 50),
      'round 7 (paid, p1) is still open',
      "p1: the wallet's balance is 5060, the log says 5000; the lost transactions moved 50",
    ]);
  });

  it('reports lost money the balance does not show', () => {
    expect(explainLoss([row(12, 'win', 50)], new Set([12])).unexplained).toEqual([
      'p1: the lost transactions moved 50, yet the balance agrees with the restored log',
    ]);
  });
});
