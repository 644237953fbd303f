/**
 * The end-to-end flows, written once and run against each topology (platform.e2e.spec.ts). The
 * test acts as the operator (API v1), as the player (the player API of the launch URL) and reads
 * the operator's wallet (the sandbox's admin API and its ledger file) — nothing else.
 */
import { expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { expectOk, OperatorClient, PlayerClient, SandboxAdmin, type JsonResponse } from './support/clients.js';
import { readEventLog, readSandboxLedger, reconcile } from './support/reconcile.js';
import type { RunningPlatform } from './support/topologies.js';

/**
 * How long a flow waits for what the platform delivers by itself (wins at the wallet, a completed
 * bonus). They arrive within about a second on every topology, Kafka's too; the rest is room for
 * a loaded CI run.
 */
const DELIVERED_WITHIN_MS = 15_000;

const BET = 0.2;
const minor = (amount: number) => Math.round(amount * 100);

export function platformFlows(current: () => RunningPlatform): void {
  const operator = () => new OperatorClient(() => current().gatewayUrl, current().operator);
  const wallet = () => new SandboxAdmin(() => current().sandboxUrl, current().operator.id);
  const player = (token: string) => new PlayerClient(() => current().gameUrl, token);
  /** Every player of these flows and the balance the test gave it, for the final reconciliation. */
  const openings = new Map<string, number>();
  const newPlayer = async (playerId: string, balance: number) => {
    await wallet().setBalance(playerId, balance);
    openings.set(playerId, minor(balance));
    return playerId;
  };
  const ledgerOf = (playerId: string) =>
    readSandboxLedger(current().dataDir, current().operator.id).filter((row) => row.playerId === playerId);

  it('plays a free-spin bonus to the end: one win per spin with bonusId = issueId, then completed', async () => {
    const playerId = await newPlayer('fs_full', 10);
    const issueId = await operator().registerFreeSpins({ playerId, spins: 3 });
    const game = player(await operator().launch(playerId));
    const session = await game.session();
    expect(session.body.data.activeBonus).toMatchObject({ issueId, status: 'active', spinsLeft: 3, baseBet: BET });

    const spins: JsonResponse[] = [];
    for (let spin = 1; spin <= 3; spin++) spins.push(await game.spin({ issueId }));
    expect(
      spins.map((spin) => [
        spin.status,
        spin.body.data.kind,
        spin.body.data.bonus.spinNumber,
        spin.body.data.bonus.spinsLeft,
      ]),
    ).toEqual([
      [200, 'free', 1, 2],
      [200, 'free', 2, 1],
      [200, 'free', 3, 0],
    ]);
    expect(spins.map((spin) => spin.body.data.bonus.completed)).toEqual([false, false, true]);

    const wins = await eventually(
      () => {
        const rows = ledgerOf(playerId);
        expect(rows).toHaveLength(3);
        return rows;
      },
      DELIVERED_WITHIN_MS,
      100,
    );
    // Exactly one win per spin, for that spin's round and amount, with bonusId = issueId (D10); no bet at all.
    expect(
      wins.map((row) => ({
        command: row.command,
        roundId: row.roundId,
        creditMinor: row.creditMinor,
        bonusId: row.bonusId,
        applied: row.applied,
      })),
    ).toEqual(
      spins.map((spin) => ({
        command: 'win',
        roundId: spin.body.data.roundId,
        creditMinor: minor(spin.body.data.win),
        bonusId: issueId,
        applied: true,
      })),
    );
    const totalWin = spins.reduce((sum, spin) => sum + minor(spin.body.data.win), 0);
    const status = await operator().bonus(issueId);
    expect(status.body.data).toMatchObject({ status: 'completed', spinsUsed: 3, spinsLeft: 0 });
    expect(minor(status.body.data.totalWin)).toBe(totalWin);
    expect(await wallet().balanceMinor(playerId)).toBe(minor(10) + totalWin);

    // The bonus is over: the next spin is a paid one.
    expect((await game.spin({ bet: BET })).body.data.kind).toBe('paid');
  });

  it('cancels an active bonus (its spins are no longer free), and refuses to cancel a completed one', async () => {
    const playerId = await newPlayer('fs_cancel', 10);
    const issueId = await operator().registerFreeSpins({ playerId, spins: 5 });
    const game = player(await operator().launch(playerId));
    expect((await game.spin({})).body.data).toMatchObject({ kind: 'free', bonus: { issueId, spinNumber: 1 } });

    const canceled = await operator().cancel(issueId);
    expect([canceled.status, canceled.body.data]).toEqual([200, { issueId, status: 'canceled' }]);
    expect((await operator().bonus(issueId)).body.data).toMatchObject({
      status: 'canceled',
      spinsUsed: 1,
      spinsLeft: 4,
    });
    expect((await game.session()).body.data.activeBonus).toBeNull();
    const paid = await game.spin({ bet: BET });
    expect(paid.body.data).toMatchObject({ kind: 'paid', bet: BET, bonus: null });
    // The page still believing in the bonus is told it is gone.
    expect((await game.spin({ issueId })).body.error.code).toBe('BONUS_NOT_FOUND');
    expect((await operator().cancel(issueId)).status).toBe(200);
    await eventually(
      () =>
        expect(
          ledgerOf(playerId)
            .map((row) => row.command)
            .sort(),
        ).toEqual(['bet', 'win', 'win']),
      DELIVERED_WITHIN_MS,
      100,
    );

    const donePlayer = await newPlayer('fs_done', 10);
    const doneIssue = await operator().registerFreeSpins({ playerId: donePlayer, spins: 1 });
    const doneGame = player(await operator().launch(donePlayer));
    expect((await doneGame.spin({})).body.data.bonus).toMatchObject({ issueId: doneIssue, completed: true });
    const refused = await operator().cancel(doneIssue);
    expect([refused.status, refused.body.error.code]).toEqual([409, 'BONUS_ALREADY_COMPLETED']);
    expect((await operator().bonus(doneIssue)).body.data.status).toBe('completed');
  });

  it('expires a bonus in the middle of a session: the next spin is a paid one', async () => {
    const playerId = await newPlayer('fs_expiry', 10);
    const expireAt = new Date(Date.now() + 6_000);
    const issueId = await operator().registerFreeSpins({ playerId, spins: 5, expireAt });
    const game = player(await operator().launch(playerId));
    expect((await game.spin({})).body.data).toMatchObject({ kind: 'free', bonus: { issueId, spinNumber: 1 } });

    const expired = await eventually(
      async () => {
        const status = await operator().bonus(issueId);
        expect(status.body.data.status).toBe('expired');
        return status.body.data;
      },
      DELIVERED_WITHIN_MS,
      250,
    );
    expect(expired).toMatchObject({ spinsUsed: 1, spinsLeft: 4 });
    expect(Date.parse(expired.expiredAt)).toBeGreaterThanOrEqual(Math.floor(expireAt.getTime() / 1_000) * 1_000);
    expect((await game.session()).body.data.activeBonus).toBeNull();
    expect((await game.spin({ bet: BET })).body.data).toMatchObject({ kind: 'paid', bet: BET, bonus: null });
    expect((await operator().cancel(issueId)).body.error.code).toBe('BONUS_EXPIRED');
  });

  it('plays paid spins until the wallet answers ERR_NOT_ENOUGH_MONEY: that round is canceled, the balance intact', async () => {
    const playerId = await newPlayer('broke_player', 0.6);
    const game = player(await operator().launch(playerId));
    let settledRounds = 0;
    let refusal: JsonResponse | undefined;
    let balanceBefore = 0;
    for (let spin = 1; spin <= 25 && !refusal; spin++) {
      // Wait for the previous round's win, so the balance read is the one the next bet meets.
      await eventually(
        () => expect(ledgerOf(playerId).filter((row) => row.command === 'win')).toHaveLength(settledRounds),
        DELIVERED_WITHIN_MS,
        50,
      );
      if (spin === 8) {
        // The player spends the rest elsewhere: a move the event log cannot know, so the reconciliation's opening moves with it.
        const spent = (await wallet().balanceMinor(playerId)) - minor(0.1);
        await wallet().setBalance(playerId, 0.1);
        openings.set(playerId, (openings.get(playerId) ?? 0) - spent);
      }
      balanceBefore = await wallet().balanceMinor(playerId);
      const answer = await game.spin({ bet: BET });
      if (answer.status === 200) {
        expect(answer.body.data.kind).toBe('paid');
        settledRounds += 1;
      } else refusal = answer;
    }
    expect(refusal?.status).toBe(409);
    expect(refusal?.body.error).toEqual({
      code: 'INSUFFICIENT_FUNDS',
      details: [
        { path: 'statusCode', message: 'ERR_NOT_ENOUGH_MONEY' },
        { path: 'roundId', message: expect.stringMatching(/^\d+$/) },
      ],
    });
    expect(balanceBefore).toBeLessThan(minor(BET));
    expect(settledRounds).toBeGreaterThan(0);

    const refusedBet = ledgerOf(playerId).find(
      (row) => row.command === 'bet' && row.statusCode === 'ERR_NOT_ENOUGH_MONEY',
    );
    expect(refusedBet).toMatchObject({ applied: false, debitMinor: 0 });
    const round = await game.round(refusedBet?.roundId ?? 0);
    expect(round.body.data).toMatchObject({
      kind: 'paid',
      status: 'canceled',
      win: null,
      reason: expect.stringContaining('ERR_NOT_ENOUGH_MONEY'),
    });
    // The cancel (D9) reaches the wallet, finds nothing to refund, and the balance stays what it was.
    await eventually(
      () =>
        expect(ledgerOf(playerId).find((row) => row.command === 'cancel')).toMatchObject({
          refTransactionId: refusedBet?.transactionId,
          statusCode: 'OK',
        }),
      DELIVERED_WITHIN_MS,
      100,
    );
    expect(await wallet().balanceMinor(playerId)).toBe(balanceBefore);

    // The operator sees the same through the reconciliation API, read by the gateway from the log the
    // other services wrote: the refused bet failed, its cancel succeeded; every bet listed, page by page.
    const reconciled = expectOk(await operator().get(`/v1/rounds/${refusedBet?.roundId ?? 0}`), 'round').body.data;
    expect(reconciled).toMatchObject({ status: 'canceled', win: null });
    expect(reconciled.transactions).toEqual([
      expect.objectContaining({
        command: 'bet',
        status: 'failed',
        cancel: expect.objectContaining({ status: 'succeeded' }),
      }),
    ]);
    const listed: { command: string }[] = [];
    let cursor: string | null = '';
    for (let page = 0; cursor !== null && page < 100; page++) {
      const query = `/v1/transactions?playerId=${playerId}&limit=7${cursor ? `&cursor=${cursor}` : ''}`;
      const data: { items: { command: string }[]; nextCursor: string | null } = expectOk(
        await operator().get(query),
        'transactions',
      ).body.data;
      listed.push(...data.items);
      cursor = data.nextCursor;
    }
    expect(listed.filter((tx) => tx.command === 'bet')).toHaveLength(
      ledgerOf(playerId).filter((row) => row.command === 'bet').length,
    );
  });

  /** Keeps the helper honest: the reconciliation reports a wallet that moved money the log does not know. */
  it('notices money the log does not account for', async () => {
    const playerId = await newPlayer('reconcile_probe', 5);
    const game = player(await operator().launch(playerId));
    expect((await game.spin({ bet: BET })).status).toBe(200);
    const ledger = await eventually(
      () => {
        const rows = readSandboxLedger(current().dataDir, current().operator.id);
        expect(rows.filter((row) => row.playerId === playerId && row.command === 'win')).toHaveLength(1);
        return rows;
      },
      DELIVERED_WITHIN_MS,
      100,
    );
    const log = await readEventLog(current().dataDir, current().eventStoreUrl);
    const balanceMinor = await wallet().balanceMinor(playerId);
    expect(reconcile(log, ledger, new Map([[playerId, { openingMinor: minor(5), balanceMinor }]]))).toEqual([]);
    expect(
      reconcile(log, ledger, new Map([[playerId, { openingMinor: minor(5), balanceMinor: balanceMinor + 1 }]])),
    ).toEqual([`${playerId}: the wallet's balance is ${balanceMinor + 1}, the log says ${balanceMinor}`]);
    const forged = ledger.map((row) =>
      row.playerId === playerId && row.command === 'win' ? { ...row, transactionId: row.transactionId + 1 } : row,
    );
    expect(reconcile(log, forged, new Map([[playerId, { openingMinor: minor(5), balanceMinor }]]))).toEqual([
      expect.stringMatching(/won \d+, but the wallet has undefined/),
      expect.stringMatching(/^the wallet applied a transaction the event log does not account for/),
    ]);
  });

  it('loses nothing and applies nothing twice when every platform process is SIGKILLed in the middle of play', async () => {
    const freePlayers = ['crash_free_1', 'crash_free_2'];
    const paidPlayers = ['crash_paid_1', 'crash_paid_2'];
    const bonuses = new Map<string, number>();
    for (const playerId of [...freePlayers, ...paidPlayers]) await newPlayer(playerId, 50);
    for (const playerId of freePlayers)
      bonuses.set(playerId, await operator().registerFreeSpins({ playerId, spins: 8 }));
    const games = new Map<string, PlayerClient>();
    for (const playerId of [...freePlayers, ...paidPlayers])
      games.set(playerId, player(await operator().launch(playerId)));
    const answered: { playerId: string; roundId: number; winMinor: number }[] = [];

    // Every player spins as fast as the platform answers, until the platform dies under it.
    let dead = false;
    let interrupted = 0;
    const play = async (playerId: string) => {
      const game = games.get(playerId) as PlayerClient;
      while (!dead) {
        try {
          const answer = await game.spin(freePlayers.includes(playerId) ? {} : { bet: BET });
          if (answer.status === 200)
            answered.push({ playerId, roundId: answer.body.data.roundId, winMinor: minor(answer.body.data.win) });
          if (answer.body.data?.bonus?.completed) return;
        } catch {
          interrupted += 1; // the connection died with the platform, the spin in flight
          return;
        }
      }
    };
    const players = [...games.keys()].map(play);
    await eventually(() => expect(answered.length).toBeGreaterThanOrEqual(6), 20_000, 10);
    dead = true;
    await current().crash();
    await Promise.all(players);
    expect(interrupted).toBeGreaterThan(0);

    // Back on the same data: the free players finish their bonuses, the paid players play on.
    for (const playerId of freePlayers) {
      const game = games.get(playerId) as PlayerClient;
      await eventually(
        async () => {
          const status = await operator().bonus(bonuses.get(playerId) ?? 0);
          if (status.body.data.status === 'completed') return;
          const answer = await game.spin({});
          if (answer.status === 200)
            answered.push({ playerId, roundId: answer.body.data.roundId, winMinor: minor(answer.body.data.win) });
          throw new Error(`bonus of ${playerId} not completed yet: ${JSON.stringify(status.body.data)}`);
        },
        40_000,
        50,
      );
      expect((await operator().bonus(bonuses.get(playerId) ?? 0)).body.data).toMatchObject({
        status: 'completed',
        spinsUsed: 8,
        spinsLeft: 0,
      });
    }
    for (const playerId of paidPlayers) {
      const game = games.get(playerId) as PlayerClient;
      // A spin the kill interrupted left its session's claim behind: the session spins again once
      // that claim lapsed (ROUND_RESOLVE_AFTER_MS, 4 s here; docs/adr/0005-leases-and-fencing.md),
      // and is refused SPIN_IN_PROGRESS until then, never charged twice.
      await eventually(
        async () => {
          const answer = await game.spin({ bet: BET });
          if (answer.status === 409) expect(answer.body.error.code).toBe('SPIN_IN_PROGRESS');
          expect(answer.status).toBe(200);
        },
        DELIVERED_WITHIN_MS,
        250,
      );
      expect((await game.spin({ bet: BET })).status).toBe(200);
    }

    // Rounds the kill left open are resolved by the restarted platform; then the wallet and the log agree.
    const balancesOf = async (playerIds: readonly string[]) =>
      new Map(
        await Promise.all(
          playerIds.map(
            async (playerId) =>
              [
                playerId,
                { openingMinor: openings.get(playerId) ?? 0, balanceMinor: await wallet().balanceMinor(playerId) },
              ] as const,
          ),
        ),
      );
    await eventually(
      async () => {
        const log = await readEventLog(current().dataDir, current().eventStoreUrl);
        expect(
          reconcile(
            log,
            readSandboxLedger(current().dataDir, current().operator.id),
            await balancesOf([...freePlayers, ...paidPlayers]),
          ),
        ).toEqual([]);
        // Every spin answered before or after the kill is in the log, settled with the win it showed.
        expect(
          answered.filter(({ roundId, winMinor }) => log.rounds.get(roundId)?.settled?.winMinor !== winMinor),
        ).toEqual([]);
        // Each free-spin bonus paid exactly its 8 spins, once each.
        for (const playerId of freePlayers) {
          const spins = log.freeSpins
            .filter((spin) => spin.issueId === bonuses.get(playerId))
            .map((spin) => spin.spinNumber);
          expect(spins).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
        }
      },
      40_000,
      500,
    );
  });

  it('leaves the wallet agreeing with the event log for every player of these flows', async () => {
    expect(openings.size).toBeGreaterThanOrEqual(10);
    await eventually(
      async () => {
        const balances = new Map(
          await Promise.all(
            [...openings].map(
              async ([playerId, openingMinor]) =>
                [playerId, { openingMinor, balanceMinor: await wallet().balanceMinor(playerId) }] as const,
            ),
          ),
        );
        expect(
          reconcile(
            await readEventLog(current().dataDir, current().eventStoreUrl),
            readSandboxLedger(current().dataDir, current().operator.id),
            balances,
          ),
        ).toEqual([]);
      },
      DELIVERED_WITHIN_MS,
      250,
    );
  });
}
