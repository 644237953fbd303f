import { describe, expect, it } from '@jest/globals';
import {
  parseStoredEvent,
  playerBonusStream,
  playerSessionResponse,
  spinResponse,
  type BonusWebhook,
  type WalletRequestsMessage,
} from '@reelstream/contracts';
import { loadRoundAudit } from '@reelstream/analytics-application';
import { REGULAR_BONUS_MAX_SPINS } from '@reelstream/game-domain';
import { eventually } from '@reelstream/testing';
import { OPERATOR_ID, Stack } from './support/stack.js';
import { webhookReceiver } from './support/webhook-receiver.js';

/** The operator's bonus webhooks (ADR 0008), as a receiver that accepts every one. */
const webhooks: BonusWebhook[] = [];
const receiver = webhookReceiver(({ webhook }) => {
  webhooks.push(webhook);
  return 204;
});

/** The types of the webhooks of one bonus, once per event id, in the order received. */
function webhookTypesOf(bonusId: number): string[] {
  const seen = new Set<string>();
  return webhooks
    .filter((webhook) => webhook.bonusId === bonusId && !seen.has(webhook.eventId) && seen.add(webhook.eventId))
    .map((webhook) => webhook.type);
}

/** Armed by a test: the game-server's next RoundSettled append fails, as a crash right before it would leave it. */
let failNextSettle = false;
const stack = Stack.forTests({
  regularBonusCall: true,
  openingBalance: 1_000,
  gameServer: { resolveAfterMs: 300 },
  webhookUrl: receiver.url,
  beforeGameServerAppend: async (streamId, events) => {
    if (failNextSettle && streamId.startsWith('round-') && events[0]?.type === 'RoundSettled') {
      failNextSettle = false;
      throw new Error('the game-server stops before RoundSettled');
    }
  },
});

const toMinor = (amount: number) => Math.round(amount * 100);
const wallClock = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

async function register(playerId: string, callAmount: number, expireAt?: string): Promise<number> {
  const response = await stack.registerRegularBonus({
    playerId,
    gameIds: [101, 102],
    callAmount,
    ...(expireAt === undefined ? {} : { expireAt }),
  });
  if (response.status !== 200) throw new Error(`register failed: ${response.status} ${response.text}`);
  return Number(response.body.data.issueId);
}

async function paidSpin(token: string, bet: number) {
  const response = await stack.spin(token, { bet });
  expect(response.status).toBe(200);
  return spinResponse.parse(response.body).data;
}

/** The bets and wins of the player's rounds as published to the dispatcher, once each round's win is out. */
type RoundMoney = Exclude<WalletRequestsMessage, { command: 'redrive' }>;

async function moneyOf(playerId: string, roundIds: readonly number[]): Promise<RoundMoney[]> {
  return eventually(() => {
    const sent = stack
      .publishedFor(playerId)
      .flatMap((request) => (request.command === 'redrive' ? [] : [request]))
      .filter((request) => roundIds.includes(request.roundId));
    expect(sent.filter((request) => request.command === 'win')).toHaveLength(roundIds.length);
    return sent;
  });
}

describe('Regular Bonus Call (bonusType 2) played through paid spins (ADR 0012)', () => {
  it('steers paid spins until the target is delivered exactly, every bet and win with bonusId = issueId, then completes', async () => {
    const issueId = await register('rbc_full', 12.37);
    const { token } = await stack.launch('rbc_full', 101);
    // The game page's badge: nothing delivered yet, and this session's paid spins are steered.
    const sessionOf = async () => playerSessionResponse.parse((await stack.session(token)).body).data;
    expect((await sessionOf()).activeBonus).toEqual({
      bonusType: 2,
      issueId,
      status: 'active',
      currency: 'EUR',
      playable: true,
      callAmount: 12.37,
      delivered: 0,
      left: 12.37,
      spinsUsed: 0,
      expireAt: expect.any(String),
    });
    const roundIds: number[] = [];
    let won = 0;
    for (let spin = 1; spin <= REGULAR_BONUS_MAX_SPINS; spin++) {
      const result = await paidSpin(token, 1);
      expect(result.kind).toBe('paid');
      roundIds.push(result.roundId);
      won += toMinor(result.win);
      // Each steered spin answers the bonus's progress after it: delivered grows by the spin's win to callAmount.
      const done = won === 1_237;
      expect(result.bonus).toEqual({
        bonusType: 2,
        issueId,
        spinNumber: spin,
        callAmount: 12.37,
        delivered: won / 100,
        left: (1_237 - won) / 100,
        // A top-up only ever comes with the completing spin.
        topUp: done ? expect.any(Number) : 0,
        status: done ? 'completed' : 'active',
        completed: done,
      });
      if (!done) expect((await sessionOf()).activeBonus).toMatchObject({ delivered: won / 100, spinsUsed: spin });
      if ((await stack.bonusStatus(issueId)).body.data.status === 'completed') break;
    }
    expect(won).toBe(1_237);
    expect((await sessionOf()).activeBonus).toBeNull();
    const status = (await stack.bonusStatus(issueId)).body.data;
    expect(status).toMatchObject({ status: 'completed', totalWin: 12.37, spinsUsed: roundIds.length });

    const sent = await moneyOf('rbc_full', roundIds);
    expect(sent.filter((request) => request.command === 'bet')).toHaveLength(roundIds.length);
    for (const request of sent) expect(request.bonusId).toBe(issueId);
    const wins = sent.filter((request) => request.command === 'win');
    expect(wins.reduce((sum, win) => sum + (win.command === 'win' ? win.amountMinor : 0), 0)).toBe(1_237);
    // The operator's wallet applied every one of them.
    await eventually(() => {
      const applied = stack.transactions('rbc_full').filter((tx) => tx.applied);
      for (const request of sent) expect(applied.map((tx) => tx.transactionId)).toContain(request.transactionId);
    });

    // The operator's reconciliation API shows the round and its transactions with the bonus's id.
    const round = await stack.operatorApi('GET', `/v1/rounds/${roundIds[0]}`);
    expect(round.body.data).toMatchObject({ kind: 'paid', bonusId: issueId, status: 'settled' });
    for (const tx of round.body.data.transactions as { bonusId: number }[]) expect(tx.bonusId).toBe(issueId);

    // The round audit tells a steered round from an ordinary one, and each one matches its record.
    const audit = await loadRoundAudit(stack.store, roundIds[0] as number, () => 'lotus-garden');
    expect(audit).toMatchObject({ play: 'bonus_steered', bonusId: issueId, matches: true });

    // Completed: the next spin is an ordinary paid spin, cancel is refused, and a new bonus can be registered.
    const after = await paidSpin(token, 1);
    expect(after.bonus).toBeNull();
    expect((await moneyOf('rbc_full', [after.roundId])).every((request) => request.bonusId === 0)).toBe(true);
    // Published is not yet recorded: the dispatcher writes the win's walletTx stream a moment later.
    await eventually(async () =>
      expect(await loadRoundAudit(stack.store, after.roundId, () => 'lotus-garden')).toMatchObject({
        play: 'paid',
        bonusId: 0,
        matches: true,
      }),
    );
    const cancel = await stack.cancelBonus(issueId);
    expect(cancel.status).toBe(409);
    expect(cancel.body.error.code).toBe('BONUS_ALREADY_COMPLETED');

    // The operator heard of each change: registered, every steered spin, completed (ADR 0008).
    await eventually(() =>
      expect(webhookTypesOf(issueId)).toEqual([
        'bonus.registered',
        ...roundIds.map(() => 'bonus.spin_settled'),
        'bonus.completed',
      ]),
    );
    expect(webhooks.find((webhook) => webhook.bonusId === issueId && webhook.type === 'bonus.completed')).toMatchObject(
      {
        status: 'completed',
        reason: 'target_reached',
        totalWin: 12.37,
      },
    );
  });

  it('refuses another bonus while it is active (409), plays ordinary spins in games it does not name, and cancels', async () => {
    const issueId = await register('rbc_cancel', 500);
    const other = await stack
      .registerFreeSpins({ playerId: 'rbc_cancel', spinAmount: 1 })
      .catch((error: Error) => error);
    expect(String(other)).toMatch(/409/);

    const elsewhere = await stack.launch('rbc_cancel', 103);
    const plain = await paidSpin(elsewhere.token, 1);
    expect(plain.bonus).toBeNull();
    // Not a game of the bonus: the page shows no badge there.
    expect(playerSessionResponse.parse((await stack.session(elsewhere.token)).body).data.activeBonus).toBeNull();
    const { token } = await stack.launch('rbc_cancel', 102);
    const steered = await paidSpin(token, 1);
    expect(steered.bonus).toMatchObject({ bonusType: 2, issueId, spinNumber: 1, status: 'active', completed: false });
    const sent = await moneyOf('rbc_cancel', [plain.roundId, steered.roundId]);
    for (const request of sent) expect(request.bonusId).toBe(request.roundId === steered.roundId ? issueId : 0);

    expect((await stack.cancelBonus(issueId)).status).toBe(200);
    const status = (await stack.bonusStatus(issueId)).body.data;
    expect(status).toMatchObject({ status: 'canceled', spinsUsed: 1, totalWin: steered.win });
    await eventually(() => expect(webhookTypesOf(issueId).at(-1)).toBe('bonus.canceled'));
    const afterCancel = await paidSpin(token, 1);
    expect(afterCancel.bonus).toBeNull();
    expect((await moneyOf('rbc_cancel', [afterCancel.roundId])).every((request) => request.bonusId === 0)).toBe(true);
  });

  it('expires at expireAt with what it delivered so far; later spins are ordinary', async () => {
    const issueId = await register('rbc_expire', 400, wallClock(Date.now() + 2_000));
    const { token } = await stack.launch('rbc_expire', 101);
    const steered = await paidSpin(token, 0.2);
    await eventually(
      async () =>
        expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({
          status: 'expired',
          totalWin: steered.win,
        }),
      8_000,
    );
    await eventually(() =>
      expect(webhookTypesOf(issueId)).toEqual(['bonus.registered', 'bonus.spin_settled', 'bonus.expired']),
    );
    const after = await paidSpin(token, 0.2);
    const sent = await moneyOf('rbc_expire', [steered.roundId, after.roundId]);
    for (const request of sent) expect(request.bonusId).toBe(request.roundId === steered.roundId ? issueId : 0);
  });

  it('a steered round interrupted after its decision and before RoundSettled is settled by the resolver with the decided outcome', async () => {
    const issueId = await register('rbc_crash', 30);
    const { token } = await stack.launch('rbc_crash', 101);
    failNextSettle = true;
    const interrupted = await stack.spin(token, { bet: 1 });
    expect(interrupted.status).toBeGreaterThanOrEqual(500);
    expect(failNextSettle).toBe(false);

    const bonusEvents = async () =>
      (await stack.store.readStream(playerBonusStream(OPERATOR_ID, 'rbc_crash'))).map((event) =>
        parseStoredEvent(event),
      );
    const decision = (await bonusEvents()).find((event) => event.type === 'RegularBonusSpinSettled');
    if (decision?.type !== 'RegularBonusSpinSettled') throw new Error('no steered decision was stored');
    const { roundId } = decision.data;
    const settled = await eventually(async () => {
      const end = (await stack.store.readStream(`round-${roundId}`)).map((event) => parseStoredEvent(event)).at(-1);
      if (end?.type !== 'RoundSettled') throw new Error('round still open');
      return end.data;
    }, 8_000);
    expect(settled.outcome).toEqual(decision.data.outcome);
    expect(settled.winMinor).toBe(decision.data.winMinor);
    const [win] = (await moneyOf('rbc_crash', [roundId])).filter((request) => request.command === 'win');
    expect(win).toMatchObject({ bonusId: issueId, amountMinor: decision.data.winMinor });
    expect((await stack.bonusStatus(issueId)).body.data.totalWin).toBe(decision.data.winMinor / 100);
    // One decision for the round, however often it was asked for.
    expect((await bonusEvents()).filter((event) => event.type === 'RegularBonusSpinSettled')).toHaveLength(1);
  });
});
