/**
 * The player's balance is only ever one the operator's wallet confirmed
 * (docs/adr/0009-wallet-confirmed-balance.md). The sandbox wallet refuses a win twice and then
 * applies it but answers late: while it has not answered, the spin and the session show the bet's
 * answer and the win as pending, though the wallet's balance already includes the win; once the
 * answer is recorded, the session shows the balance it carried. A free spin's win the same way.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { playerSessionResponse, spinResponse, walletTxStream, type PlayerSession } from '@reelstream/contracts';
import { createSeededRng, findModel, playRound } from '@reelstream/game-domain';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

const LATE_MS = 2_500;

/** A seed whose first round (a paid spin at 1.00) and second (a free spin at 0.20) of lotus-garden both win. */
const SEED = (() => {
  const model = findModel('lotus-garden');
  if (!model) throw new Error('lotus-garden model missing');
  for (let seed = 0; seed < 10_000; seed++) {
    const rng = createSeededRng(`balance-${seed}`);
    const paid = playRound({ model, profile: 'standard', betMinor: 100, rng }).winMinor;
    const free = playRound({ model, profile: 'standard', betMinor: 20, rng }).winMinor;
    if (paid > 0 && free > 0) return `balance-${seed}`;
  }
  throw new Error('no seed found');
})();

describe('the balance the game page shows, with a wallet that refuses and then answers a win late', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ rng: createSeededRng(SEED) });
  });
  afterAll(async () => {
    await stack?.close();
  });

  const sessionOf = async (token: string): Promise<PlayerSession> =>
    playerSessionResponse.parse((await stack.session(token)).body).data;
  const answered = async (transactionId: number) =>
    (await stack.store.readStream(walletTxStream(transactionId))).some((event) => event.type === 'WalletSucceeded');

  it('a paid spin: the bet’s answer and the win pending until the wallet answered the win, then the wallet’s balance', async () => {
    const player = 'late_win';
    const { token } = await stack.launch(player, 101);
    stack.fund(player, 50);
    stack.sandbox.faults.add({ playerId: player, command: 'win', statusCode: 'ERR_UNKNOWN', times: 2 });
    stack.sandbox.faults.add({ playerId: player, command: 'win', latencyMs: LATE_MS, latencyPhase: 'after_apply' });

    const spin = spinResponse.parse((await stack.spin(token, { bet: 1 })).body).data;
    expect(spin.win).toBeGreaterThan(0);
    const winMinor = Math.round(spin.win * 100);
    expect(spin).toMatchObject({ kind: 'paid', balance: 49, pendingWin: spin.win });
    expect(await sessionOf(token)).toMatchObject({ balance: 49, pendingWin: spin.win });

    // The wallet applied the win (after refusing it twice) and has not answered yet.
    await eventually(() => expect(stack.balanceMinor(player)).toBe(4_900 + winMinor), 10_000);
    const win = stack.publishedFor(player).find((request) => request.command === 'win');
    if (!win) throw new Error('no win sent');
    const seen: PlayerSession[] = [];
    const deadline = Date.now() + 15_000;
    while (!(await answered(win.transactionId))) {
      if (Date.now() > deadline) throw new Error(`the wallet's answer to win ${win.transactionId} never came`);
      seen.push(await sessionOf(token));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(seen.length).toBeGreaterThan(3);
    for (const view of seen) expect(view).toMatchObject({ balance: 49, pendingWin: spin.win });

    const after = await sessionOf(token);
    expect(after).toMatchObject({ balance: (4_900 + winMinor) / 100, pendingWin: 0 });
    expect(after.balance).toBe((stack.balanceMinor(player) ?? Number.NaN) / 100);
  }, 30_000);

  it('a free spin: its win is pending (no balance known yet), then the balance the wallet answered it with', async () => {
    const player = 'late_free';
    stack.fund(player, 10);
    await stack.registerFreeSpins({ playerId: player, spinAmount: 2 });
    const { token } = await stack.launch(player, 101);
    stack.sandbox.faults.add({ playerId: player, command: 'win', latencyMs: LATE_MS, latencyPhase: 'after_apply' });

    const spin = spinResponse.parse((await stack.spin(token, {})).body).data;
    expect(spin).toMatchObject({ kind: 'free', balance: null, pendingWin: spin.win });
    expect(spin.win).toBeGreaterThan(0);
    const winMinor = Math.round(spin.win * 100);
    await eventually(() => expect(stack.balanceMinor(player)).toBe(1_000 + winMinor), 10_000);
    expect(await sessionOf(token)).toMatchObject({ balance: null, pendingWin: spin.win });

    await eventually(
      async () => expect(await sessionOf(token)).toMatchObject({ balance: 10 + spin.win, pendingWin: 0 }),
      10_000,
    );
  }, 30_000);
});
