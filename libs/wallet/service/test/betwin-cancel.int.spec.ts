/**
 * A betwin that fails after the wallet applied it is canceled, and the cancel reverses all of it
 * (D9 amended): the dispatcher sends `betAmount` and `winAmount`, the reference wallet
 * checks them against the betwin and gives back the stake and takes back the win.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { WalletBetwinRequest } from '@reelstream/contracts';
import { eventually } from '@reelstream/testing';
import { nextId, startRig, type Rig } from './rig.js';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
}, 30_000);
afterAll(() => rig?.stop());

const betwinRequest = (playerId: string, betMinor: number, winMinor: number): WalletBetwinRequest => ({
  command: 'betwin',
  transactionId: nextId(),
  operatorId: 'rig',
  playerId,
  roundId: nextId(),
  providerId: 2,
  gameId: 20,
  currency: 'EUR',
  bonusId: 0,
  requestedAt: new Date().toISOString(),
  betMinor,
  winMinor,
});

describe('the cancel of a betwin the wallet applied', () => {
  it('brings the balance back to what it was before the betwin', async () => {
    rig.sandbox.views.setBalance('rig', 'betwin_canceled', 'EUR', 10_000);
    // The wallet applies the betwin (stake 2.00, win 6.00) but its answer is garbage: the round is canceled.
    rig.sandbox.faults.add({
      operatorId: 'rig',
      playerId: 'betwin_canceled',
      command: 'betwin',
      malformedBody: true,
      applyFirst: true,
      times: 1,
    });
    const betwin = betwinRequest('betwin_canceled', 200, 600);
    const reply = await rig.request(betwin);
    expect(reply).toMatchObject({ transactionId: betwin.transactionId, statusCode: 'ERR_UNKNOWN', canceled: true });
    const cancel = await eventually(() => {
      const found = rig.sandbox.views
        .transactions({ operatorId: 'rig', playerId: 'betwin_canceled' })
        .find((row) => row.command === 'cancel');
      if (!found) throw new Error('no cancel yet');
      return found;
    }, 10_000);
    expect(cancel).toMatchObject({
      refTransactionId: betwin.transactionId,
      statusCode: 'OK',
      applied: true,
      cancelEffect: 'refunded',
      debitMinor: 600,
      creditMinor: 200,
    });
    expect(rig.sandbox.views.accounts('rig', 'betwin_canceled')[0]?.balanceMinor).toBe(10_000);
    expect(rig.sandbox.views.requests({ transactionId: cancel.transactionId }).map((entry) => entry.outcome)).toEqual([
      'applied',
    ]);
  });
});
