/**
 * A free spin that started while its bonus call was active settles with its win,
 * whatever happens to the bonus meanwhile. The spin is held after the ledger started it and
 * before the game-server records the round; the bonus is canceled (or expires) in that gap; then
 * the spin goes on. Real gateway, ledger, dispatcher, sandbox and game-server on embedded back ends.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { spinResponse } from '@reelstream/contracts';
import type { EventToAppend } from '@reelstream/platform-ports';
import { eventually } from '@reelstream/testing';
import type { JsonResponse } from './support/http.js';
import { Stack } from './support/stack.js';

/** Holds the next RoundStarted append until opened: the spin is then in flight in the ledger only. */
class SpinGate {
  private armed = false;
  private reach: () => void = () => undefined;
  private release: () => void = () => undefined;
  reached: Promise<void> = Promise.resolve();
  private released: Promise<void> = Promise.resolve();

  arm(): void {
    this.armed = true;
    this.reached = new Promise((resolve) => (this.reach = resolve));
    this.released = new Promise((resolve) => (this.release = resolve));
  }

  open(): void {
    this.release();
  }

  readonly before = async (streamId: string, events: readonly EventToAppend[]): Promise<void> => {
    if (!this.armed || !streamId.startsWith('round-') || events[0]?.type !== 'RoundStarted') return;
    this.armed = false;
    this.reach();
    await this.released;
  };
}

const gate = new SpinGate();
let stack: Stack;

beforeAll(async () => {
  stack = await Stack.start({ beforeGameServerAppend: gate.before });
});

afterAll(async () => {
  gate.open();
  await stack?.close();
});

/** Starts a free spin and waits until the ledger has started it and the game-server is held. */
async function spinHeld(token: string, issueId: number): Promise<{ answer: Promise<JsonResponse> }> {
  gate.arm();
  const answer = stack.spin(token, { issueId });
  await gate.reached;
  // Wrapped: an async function returning the promise itself would wait for it.
  return { answer };
}

async function expectCreditedAfterEnd(
  playerId: string,
  issueId: number,
  answer: JsonResponse,
  status: 'canceled' | 'expired',
): Promise<void> {
  expect(answer.status).toBe(200);
  const result = spinResponse.parse(answer.body).data;
  expect(result).toMatchObject({
    kind: 'free',
    currency: 'EUR',
    bet: 0.2,
    bonus: { issueId, spinNumber: 1, spinsLeft: 0, completed: false },
  });
  expect(await stack.roundEvents(result.roundId)).toEqual(['RoundStarted', 'RoundSettled']);
  // The bonus stays as it ended, with the spin counted as used and its win in the total.
  expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({ status, spinsUsed: 1, totalWin: result.win });
  // The ledger sends the spin's win (0 included) with the bonus's id; the wallet applies it.
  const wins = await eventually(() => {
    const found = stack.publishedFor(playerId).filter((request) => request.command === 'win');
    expect(found).toHaveLength(1);
    return found;
  });
  expect(wins[0]).toMatchObject({
    roundId: result.roundId,
    bonusId: issueId,
    amountMinor: Math.round(result.win * 100),
    currency: 'EUR',
  });
  await eventually(() => expect(stack.balanceMinor(playerId)).toBe(10_000 + Math.round(result.win * 100)));
}

describe('a free spin in flight when its bonus call ends', () => {
  it('is settled with its win when the bonus is canceled between its start and its settlement', async () => {
    const issueId = await stack.registerFreeSpins({ playerId: 'race_cancel', spinAmount: 5 });
    const { token } = await stack.launch('race_cancel', 101);
    const { answer } = await spinHeld(token, issueId);

    const canceled = await stack.cancelBonus(issueId);
    expect(canceled.status).toBe(200);
    expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({ status: 'canceled', spinsUsed: 1 });
    gate.open();

    await expectCreditedAfterEnd('race_cancel', issueId, await answer, 'canceled');
    // The bonus is over for this session: the next spin is a paid one, which needs a bet.
    expect((await stack.spin(token, {})).body.error.code).toBe('VALIDATION_FAILED');
  });

  it('is settled with its win when the bonus expires between its start and its settlement', async () => {
    const expireAt = new Date(Date.now() + 4_000).toISOString().slice(0, 19).replace('T', ' ');
    const issueId = await stack.registerFreeSpins({ playerId: 'race_expiry', spinAmount: 5, expireAt });
    const { token } = await stack.launch('race_expiry', 101);
    const { answer } = await spinHeld(token, issueId);

    // The ledger's expiry timer ends the bonus at expireAt while the spin is held.
    await eventually(
      async () =>
        expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({ status: 'expired', spinsUsed: 1 }),
      20_000,
      100,
    );
    gate.open();

    await expectCreditedAfterEnd('race_expiry', issueId, await answer, 'expired');
  }, 30_000);
});
