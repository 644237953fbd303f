import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { playerSessionResponse, spinResponse, type WalletRequestsMessage } from '@reelstream/contracts';
import { createSeededRng, findModel, playRound } from '@reelstream/game-domain';
import { eventually } from '@reelstream/testing';
import { Stack } from './support/stack.js';

function wins(requests: WalletRequestsMessage[]) {
  return requests.flatMap((request) => (request.command === 'win' ? [request] : []));
}

describe('a Free Spin Bonus of 10 spins, played through the game-server (docs/architecture.md flow 4)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start();
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('plays 10 free rounds, counts the spins down, sends one win per round with bonusId = issueId, and completes', async () => {
    const issueId = await stack.registerFreeSpins({
      playerId: 'free_ten',
      gameIds: [101, 102],
      spinAmount: 10,
      callAmount: 500,
      baseBetAmount: 0.4,
    });
    const { token } = await stack.launch('free_ten', 102);
    const before = playerSessionResponse.parse((await stack.session(token)).body).data.activeBonus;
    expect(before).toMatchObject({
      issueId,
      spinAmount: 10,
      spinsLeft: 10,
      spinsUsed: 0,
      baseBet: 0.4,
      winSoFar: 0,
      winCap: 500,
      winCapLeft: 500,
      status: 'active',
    });

    const roundIds: number[] = [];
    let winSoFar = 0;
    for (let spin = 1; spin <= 10; spin++) {
      // The page names the bonus it plays; the bet is ignored for a free spin.
      const response = await stack.spin(token, { issueId, bet: 10 });
      expect(response.status).toBe(200);
      const result = spinResponse.parse(response.body).data;
      winSoFar = Math.round((winSoFar + result.win) * 100) / 100;
      expect(result).toMatchObject({
        kind: 'free',
        bet: 0.4,
        bonus: { issueId, spinNumber: spin, spinsLeft: 10 - spin, winSoFar, capped: false, completed: spin === 10 },
      });
      roundIds.push(result.roundId);
    }
    expect(new Set(roundIds).size).toBe(10);
    for (const roundId of roundIds) expect(await stack.roundEvents(roundId)).toEqual(['RoundStarted', 'RoundSettled']);

    const status = (await stack.bonusStatus(issueId)).body.data;
    expect(status).toMatchObject({ status: 'completed', spinsUsed: 10, spinsLeft: 0, totalWin: winSoFar });
    expect(playerSessionResponse.parse((await stack.session(token)).body).data.activeBonus).toBeNull();

    // D10: no bet, one win per free round (0 included), each with the bonus's id; the ledger sends them.
    const sent = await eventually(() => {
      const found = wins(stack.publishedFor('free_ten'));
      expect(found).toHaveLength(10);
      return found;
    });
    expect(stack.publishedFor('free_ten').filter((request) => request.command !== 'win')).toEqual([]);
    expect(sent.map((win) => win.roundId).sort()).toEqual([...roundIds].sort());
    for (const win of sent) expect(win).toMatchObject({ bonusId: issueId, isRoundFinished: true });
    await eventually(() => expect(stack.balanceMinor('free_ten')).toBe(10_000 + Math.round(winSoFar * 100)));
  });

  it('sets isBonusBusy on a paid bet in another game while the bonus is active (D21), and not after', async () => {
    const issueId = await stack.registerFreeSpins({ playerId: 'busy', spinAmount: 1 });
    const other = await stack.launch('busy', 103);
    expect((await stack.spin(other.token, { bet: 0.25 })).status).toBe(200);
    const bonusGame = await stack.launch('busy', 101);
    expect(spinResponse.parse((await stack.spin(bonusGame.token, {})).body).data.bonus).toMatchObject({
      issueId,
      completed: true,
    });
    expect((await stack.spin(other.token, { bet: 0.25 })).status).toBe(200);
    const bets = stack
      .publishedFor('busy')
      .flatMap((request) => (request.command === 'bet' ? [request.isBonusBusy] : []));
    expect(bets).toEqual([true, false]);
  });

  it('refuses a free spin of a bonus id that is not the session player’s active bonus', async () => {
    const { token } = await stack.launch('no_bonus', 101);
    const response = await stack.spin(token, { issueId: 12345 });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('BONUS_NOT_FOUND');
    expect(stack.publishedFor('no_bonus')).toEqual([]);
  });
});

describe('a Free Spin Bonus whose win cap is reached on spin 3', () => {
  const model = findModel('lotus-garden');
  const baseBetMinor = 100;
  // Find a seed whose third free spin wins at least 2 minor units, so a cap one unit short of the
  // three wins is reached on that spin and cuts it.
  const chosen = (() => {
    if (!model) throw new Error('lotus-garden model missing');
    for (let seed = 0; seed < 10_000; seed++) {
      const rng = createSeededRng(`cap-${seed}`);
      const rounds = [0, 1, 2].map(
        () => playRound({ model, profile: 'standard', betMinor: baseBetMinor, rng }).winMinor,
      );
      const [first = 0, second = 0, third = 0] = rounds;
      if (third >= 2) return { seed: `cap-${seed}`, capMinor: first + second + third - 1, rawWins: rounds };
    }
    throw new Error('no seed found');
  })();
  let stack: Stack;
  beforeAll(async () => {
    stack = await Stack.start({ rng: createSeededRng(chosen.seed) });
  });
  afterAll(async () => {
    await stack?.close();
  });

  it('completes on spin 3 with total win = callAmount, the third win capped, the spins left forfeited', async () => {
    const callAmount = chosen.capMinor / 100;
    const issueId = await stack.registerFreeSpins({
      playerId: 'capped',
      spinAmount: 10,
      callAmount,
      baseBetAmount: baseBetMinor / 100,
    });
    const { token } = await stack.launch('capped', 101);
    const results = [];
    for (let spin = 1; spin <= 3; spin++) results.push(spinResponse.parse((await stack.spin(token, {})).body).data);
    expect(results.map((result) => Math.round(result.win * 100))).toEqual([
      chosen.rawWins[0],
      chosen.rawWins[1],
      (chosen.rawWins[2] ?? 0) - 1,
    ]);
    expect(results.map((result) => result.bonus?.completed)).toEqual([false, false, true]);
    expect(results[2]?.bonus).toMatchObject({ capped: true, winSoFar: callAmount, winCapLeft: 0, spinsLeft: 7 });

    expect((await stack.bonusStatus(issueId)).body.data).toMatchObject({
      status: 'completed',
      totalWin: callAmount,
      winCapLeft: 0,
      spinsUsed: 3,
    });
    // The bonus is over: the next spin is a paid one, at a bet level.
    const next = await stack.spin(token, {});
    expect(next.body.error.code).toBe('VALIDATION_FAILED');
    const sent = await eventually(() => {
      const found = wins(stack.publishedFor('capped'));
      expect(found).toHaveLength(3);
      return found;
    });
    expect(sent.reduce((total, win) => total + win.amountMinor, 0)).toBe(chosen.capMinor);
  });
});
