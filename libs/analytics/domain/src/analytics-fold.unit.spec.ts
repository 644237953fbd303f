/**
 * The folds on hand-written events: a cancel reverts the bet it cancels (once), a streamer's money
 * stays out of the agent report, days follow the operator's time zone, latencies are measured from
 * each attempt to its answer, and a filter keeps a player's wallet events though they name no player.
 */
import { describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '@reelstream/contracts';
import { AnalyticsFold } from './analytics-fold.js';
import type { ReplayFilter } from './filter.js';
import type { LogEvent } from './log-index.js';
import { percentile } from './wallet-delivery.js';

const OP = 'casino-seoul';
const catalog = new Map([[101, { name: 'Lotus Garden', model: 'lotus-garden', rtp: 0.96, streamerRtp: 1.05 }]]);
let position = 0;

function entry(streamId: string, event: DomainEvent, occurredAt: string): LogEvent {
  position += 1;
  const category = streamId.slice(0, streamId.indexOf('-')) as LogEvent['category'];
  return {
    position: String(position),
    streamId,
    category,
    occurredAt,
    occurredAtMs: Date.parse(occurredAt),
    operatorId: OP,
    event,
  };
}

function session(token: string, playerId: string, isStreamer: boolean, at: string): LogEvent {
  return entry(
    `session-${token}`,
    {
      type: 'GameSessionStarted',
      data: {
        token,
        operatorId: OP,
        playerId,
        providerId: 1,
        gameId: 101,
        language: 'en',
        returnUrl: 'https://c.example/',
        isStreamer,
        currency: 'KRW',
        startedAt: at,
        expiresAt: at,
      },
    },
    at,
  );
}

/** A paid round of `bet` won `win`, its bet and win transactions answered OK `latencyMs` after the attempt. */
function paidRound(
  roundId: number,
  token: string,
  playerId: string,
  bet: number,
  win: number,
  at: string,
  streamer = false,
  steeredBy = 0,
): LogEvent[] {
  const base = {
    operatorId: OP,
    playerId,
    roundId,
    providerId: 1,
    gameId: 101,
    currency: 'KRW',
    bonusId: 0,
    requestedAt: at,
  };
  const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
  const betTx = roundId * 10 + 1;
  const winTx = roundId * 10 + 2;
  const events = [
    entry(
      `round-${roundId}`,
      {
        type: 'RoundStarted',
        data: {
          roundId,
          sessionToken: token,
          operatorId: OP,
          playerId,
          providerId: 1,
          gameId: 101,
          kind: 'paid',
          currency: 'KRW',
          betMinor: bet,
          bonusId: steeredBy,
          rtpProfile: streamer ? 'streamer' : 'standard',
          startedAt: at,
          transactionId: betTx,
        },
      },
      at,
    ),
    entry(
      `walletTx-${betTx}`,
      {
        type: 'WalletRequested',
        data: {
          transactionId: betTx,
          operatorId: OP,
          command: 'bet',
          request: { command: 'bet', transactionId: betTx, ...base, amountMinor: bet, isBonusBusy: false },
          requestedAt: at,
        },
      },
      at,
    ),
    entry(`walletTx-${betTx}`, { type: 'WalletAttempted', data: { attempt: 1, at } }, at),
    entry(
      `walletTx-${betTx}`,
      { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 0, at: later(40) } },
      later(40),
    ),
    entry(
      `round-${roundId}`,
      {
        type: 'RoundSettled',
        data: { roundId, outcome: { modelId: 'lotus-garden' }, winMinor: win, settledAt: later(50) },
      },
      later(50),
    ),
  ];
  if (win > 0)
    events.push(
      entry(
        `walletTx-${winTx}`,
        {
          type: 'WalletRequested',
          data: {
            transactionId: winTx,
            operatorId: OP,
            command: 'win',
            request: { command: 'win', transactionId: winTx, ...base, amountMinor: win, isRoundFinished: true },
            requestedAt: later(60),
          },
        },
        later(60),
      ),
      entry(`walletTx-${winTx}`, { type: 'WalletAttempted', data: { attempt: 1, at: later(60) } }, later(60)),
      entry(
        `walletTx-${winTx}`,
        { type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 0, at: later(160) } },
        later(160),
      ),
    );
  return events;
}

function fold(events: readonly LogEvent[], filter: ReplayFilter = {}): AnalyticsFold {
  const analytics = new AnalyticsFold({ filter, catalog, timeZoneOf: () => 'Asia/Seoul' });
  for (const event of events) analytics.apply(event);
  return analytics;
}

describe('the agent report', () => {
  it('counts accepted bets and wins per day in the operator’s zone and leaves streamers out', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T14:59:00.000Z'),
      session('tok_star_0000000000000000', 'star', true, '2026-11-20T14:59:00.000Z'),
      // 23:59 and 00:01 in Seoul: two days.
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 3000, '2026-11-20T14:59:00.000Z'),
      ...paidRound(2, 'tok_alice_000000000000000', 'alice', 1000, 0, '2026-11-20T15:01:00.000Z'),
      ...paidRound(3, 'tok_star_0000000000000000', 'star', 5000, 9000, '2026-11-20T15:02:00.000Z', true),
    ];
    expect(fold(events).report('agent').rows).toEqual([
      expect.objectContaining({ day: '2026-11-20', betsMinor: 1000, winsMinor: 3000, ggrMinor: -2000, players: 1 }),
      expect.objectContaining({ day: '2026-11-21', betsMinor: 1000, winsMinor: 0, ggrMinor: 1000, players: 1 }),
    ]);
  });

  it('counts a player of two days once in the period’s players per currency, a streamer not at all', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T14:59:00.000Z'),
      session('tok_bob_00000000000000000', 'bob', false, '2026-11-20T14:59:00.000Z'),
      session('tok_star_0000000000000000', 'star', true, '2026-11-20T14:59:00.000Z'),
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 0, '2026-11-20T14:59:00.000Z'),
      ...paidRound(2, 'tok_alice_000000000000000', 'alice', 1000, 0, '2026-11-20T15:01:00.000Z'),
      ...paidRound(3, 'tok_bob_00000000000000000', 'bob', 1000, 0, '2026-11-20T15:02:00.000Z'),
      ...paidRound(4, 'tok_star_0000000000000000', 'star', 5000, 9000, '2026-11-20T15:03:00.000Z', true),
    ];
    const folded = fold(events);
    expect(folded.report('agent').rows.map((row) => row.players)).toEqual([1, 2]);
    expect(folded.agentPlayersPerCurrency()).toEqual(new Map([['KRW', 2]]));
  });

  it('takes a canceled bet back, once, however often the cancel is recorded', () => {
    const at = '2026-11-20T01:00:00.000Z';
    const events = [
      session('tok_bob_00000000000000000', 'bob', false, at),
      ...paidRound(4, 'tok_bob_00000000000000000', 'bob', 700, 0, at),
    ];
    const cancel = (n: number) => [
      entry(
        'walletTx-41',
        { type: 'CancelRequested', data: { cancelTransactionId: 99, refTransactionId: 41, at } },
        at,
      ),
      entry('walletTx-41', { type: 'CancelSucceeded', data: { at: new Date(Date.parse(at) + n).toISOString() } }, at),
    ];
    const rows = fold([...events, ...cancel(1), ...cancel(2)]).report('agent').rows;
    expect(rows).toEqual([expect.objectContaining({ betsMinor: 0, winsMinor: 0, ggrMinor: 0 })]);
    expect(fold([...events, ...cancel(1)]).report('wallet-delivery').rows).toEqual([
      expect.objectContaining({ command: 'bet', callbacks: 1, cancels: 1 }),
      expect.objectContaining({ command: 'cancel', callbacks: 1, succeeded: 1 }),
    ]);
  });
});

/** A Regular Bonus Call (bonusType 2) of `callAmount` registered for `playerId`, and its bonus stream's events. */
function regularBonus(issueId: number, playerId: string, callAmount: number, at: string) {
  const stream = `playerBonus-${OP}-${playerId}`;
  let total = 0;
  return {
    registered: entry(
      stream,
      {
        type: 'BonusCallRegistered',
        data: {
          issueId,
          platformId: `rbc-${issueId}`,
          operatorId: OP,
          playerId,
          providerId: 1,
          gameIds: [101],
          bonusType: 2,
          currency: 'KRW',
          callAmountMinor: callAmount,
          spinAmount: null,
          baseBetAmountMinor: null,
          expireAt: '2026-12-31T00:00:00.000Z',
          registeredAt: at,
        },
      },
      at,
    ),
    spin(roundId: number, spinNumber: number, reelWinMinor: number, topUpMinor: number, settledAt: string): LogEvent {
      const winMinor = reelWinMinor + topUpMinor;
      total += winMinor;
      return entry(
        stream,
        {
          type: 'RegularBonusSpinSettled',
          data: {
            issueId,
            roundId,
            gameId: 101,
            spinNumber,
            betMinor: 1000,
            reelWinMinor,
            topUpMinor,
            winMinor,
            totalWinMinor: total,
            outcome: { modelId: 'lotus-garden' },
            settledAt,
          },
        },
        settledAt,
      );
    },
    completed: (completedAt: string) =>
      entry(
        stream,
        { type: 'BonusCallCompleted', data: { issueId, reason: 'target_reached', totalWinMinor: total, completedAt } },
        completedAt,
      ),
    expired: (expiredAt: string) =>
      entry(
        stream,
        { type: 'BonusCallExpired', data: { issueId, spinsForfeited: 0, totalWinMinor: total, expiredAt } },
        expiredAt,
      ),
  };
}

describe('the agent report: bonus cost of Regular Bonus Calls (ADR 0012)', () => {
  const bonusCostOf = (events: readonly LogEvent[], filter: ReplayFilter = {}) =>
    fold(events, filter)
      .report('agent')
      .rows.map((row) => [row.day, row.bonusPaidMinor]);

  it('counts what a completed call delivered, top-up included, on the day it completed; an active one not yet', () => {
    const dan = regularBonus(501, 'dan', 12_370, '2026-11-20T01:00:00.000Z');
    const started = [session('tok_dan_00000000000000000', 'dan', false, '2026-11-20T01:00:00.000Z'), dan.registered];
    const spins = [
      ...paidRound(11, 'tok_dan_00000000000000000', 'dan', 1000, 9000, '2026-11-20T14:00:00.000Z'),
      dan.spin(11, 1, 9000, 0, '2026-11-20T14:00:00.050Z'),
      ...paidRound(12, 'tok_dan_00000000000000000', 'dan', 1000, 3370, '2026-11-20T15:30:00.000Z'),
      dan.spin(12, 2, 3300, 70, '2026-11-20T15:30:00.050Z'),
    ];
    // Nothing ended: the paid rounds' money, no bonus cost.
    expect(bonusCostOf([...started, ...spins])).toEqual([
      ['2026-11-20', 0],
      ['2026-11-21', 0],
    ]);
    // Completed at 00:30 in Seoul on the 21st: 90.00 + 33.00 + a top-up of 0.70, all on that day.
    expect(bonusCostOf([...started, ...spins, dan.completed('2026-11-20T15:30:00.050Z')])).toEqual([
      ['2026-11-20', 0],
      ['2026-11-21', 12_370],
    ]);
    // A report of the 21st only still counts the spins of the 20th: the call ended on the 21st.
    const the21st = { rangeOf: () => ({ fromMs: Date.parse('2026-11-20T15:00:00.000Z') }) };
    expect(bonusCostOf([...started, ...spins, dan.completed('2026-11-20T15:30:00.050Z')], the21st)).toEqual([
      ['2026-11-21', 12_370],
    ]);
  });

  it('counts an expired call’s delivery at its end, a spin in flight at its own settlement, and no streamer round', () => {
    const eve = regularBonus(502, 'eve', 50_000, '2026-11-20T01:00:00.000Z');
    const events = [
      session('tok_eve_00000000000000000', 'eve', false, '2026-11-20T01:00:00.000Z'),
      session('tok_eve_star_000000000000', 'eve', true, '2026-11-20T01:00:00.000Z'),
      eve.registered,
      ...paidRound(21, 'tok_eve_00000000000000000', 'eve', 1000, 4000, '2026-11-20T02:00:00.000Z'),
      eve.spin(21, 1, 4000, 0, '2026-11-20T02:00:00.050Z'),
      // A streamer session's steered spin: its money is out of the agent report, so is its bonus cost.
      ...paidRound(22, 'tok_eve_star_000000000000', 'eve', 1000, 7000, '2026-11-20T03:00:00.000Z', true),
      eve.spin(22, 2, 7000, 0, '2026-11-20T03:00:00.050Z'),
      eve.expired('2026-11-20T04:00:00.000Z'),
      // Its bet was taken before the expiry; decided after it, on the next day in Seoul.
      ...paidRound(23, 'tok_eve_00000000000000000', 'eve', 1000, 2500, '2026-11-20T16:00:00.000Z'),
      eve.spin(23, 3, 2500, 0, '2026-11-20T16:00:00.050Z'),
    ];
    expect(bonusCostOf(events)).toEqual([
      ['2026-11-20', 4000],
      ['2026-11-21', 2500],
    ]);
  });
});

describe('game performance and wallet delivery', () => {
  it('measures RTP and hit rate per segment against the catalogue', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T01:00:00.000Z'),
      session('tok_star_0000000000000000', 'star', true, '2026-11-20T01:00:00.000Z'),
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 3000, '2026-11-20T01:00:00.000Z'),
      ...paidRound(2, 'tok_alice_000000000000000', 'alice', 1000, 0, '2026-11-20T01:01:00.000Z'),
      ...paidRound(3, 'tok_star_0000000000000000', 'star', 1000, 500, '2026-11-20T01:02:00.000Z', true),
    ];
    expect(fold(events).report('game-performance').rows).toEqual([
      expect.objectContaining({
        segment: 'standard',
        rounds: 2,
        turnoverMinor: 2000,
        winsMinor: 3000,
        measuredRtp: 1.5,
        theoreticalRtp: 0.96,
        hitRate: 0.5,
      }),
      expect.objectContaining({ segment: 'streamer', rounds: 1, measuredRtp: 0.5, theoreticalRtp: 1.05, hitRate: 1 }),
    ]);
  });

  it('keeps spins steered by a Regular Bonus Call out of measured RTP, as their own segment', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T01:00:00.000Z'),
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 1000, '2026-11-20T01:00:00.000Z'),
      ...paidRound(2, 'tok_alice_000000000000000', 'alice', 1000, 900, '2026-11-20T01:01:00.000Z'),
      // Three steered spins paying 50× would lift the game's RTP from 0.95 to 30.4.
      ...[3, 4, 5].flatMap((roundId) =>
        paidRound(roundId, 'tok_alice_000000000000000', 'alice', 1000, 50_000, '2026-11-20T01:02:00.000Z', false, 77),
      ),
    ];
    const rows = fold(events).report('game-performance').rows;
    expect(rows.map((row) => [row.segment, row.rounds, row.winsMinor, row.measuredRtp, row.theoreticalRtp])).toEqual([
      ['standard', 2, 1900, 0.95, 0.96],
      ['steered', 3, 150_000, null, null],
    ]);
    // Two rounds: the interval is printed, and flagged too short to compare with the target.
    expect(rows[0]).toMatchObject({ insufficientRounds: 'yes' });
    expect(rows[0]?.rtpLow95).toBeLessThan(0.95);
    expect(rows[0]?.rtpHigh95).toBeGreaterThan(0.95);
    expect(rows[1]).toMatchObject({ rtpLow95: null, rtpHigh95: null, insufficientRounds: null });
  });

  it('says an RTP is sufficient once the interval is within a point either side', () => {
    // 400 rounds alternating 0.9× and 1.0× a 1,000 bet: mean 0.95, spread 0.05, margin ≈ 0.0049.
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T01:00:00.000Z'),
      ...Array.from({ length: 400 }, (_, i) =>
        paidRound(i + 1, 'tok_alice_000000000000000', 'alice', 1000, i % 2 ? 900 : 1000, '2026-11-20T01:00:00.000Z'),
      ).flat(),
    ];
    const [row] = fold(events).report('game-performance').rows;
    expect(row).toMatchObject({ rounds: 400, measuredRtp: 0.95, insufficientRounds: 'no' });
    expect(row?.rtpHigh95).toBeCloseTo(0.9549, 3);
  });

  it('times each call from its attempt to its answer', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T01:00:00.000Z'),
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 3000, '2026-11-20T01:00:00.000Z'),
    ];
    const rows = fold(events).report('wallet-delivery').rows;
    expect(rows.map((row) => [row.command, row.latencyP50Ms, row.outcomes])).toEqual([
      ['bet', 40, 'OK=1'],
      ['win', 100, 'OK=1'],
    ]);
    expect(percentile([10, 20, 30, 40], 50)).toBe(20);
    expect(percentile([10, 20, 30, 40], 95)).toBe(40);
    expect(percentile([], 50)).toBeNull();
  });

  it('keeps a player’s wallet events under --player, though they name the player only in the request', () => {
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T01:00:00.000Z'),
      session('tok_bob_00000000000000000', 'bob', false, '2026-11-20T01:00:00.000Z'),
      ...paidRound(1, 'tok_alice_000000000000000', 'alice', 1000, 3000, '2026-11-20T01:00:00.000Z'),
      ...paidRound(2, 'tok_bob_00000000000000000', 'bob', 200, 0, '2026-11-20T01:01:00.000Z'),
    ];
    const analytics = fold(events, { playerId: 'bob' });
    expect(analytics.report('agent').rows).toEqual([
      expect.objectContaining({ betsMinor: 200, winsMinor: 0, players: 1 }),
    ]);
    expect(analytics.report('wallet-delivery').rows).toEqual([
      expect.objectContaining({ command: 'bet', succeeded: 1 }),
    ]);
  });
});

describe('bounded memory', () => {
  it('forgets rounds and transactions the log stopped naming, and reports the same figures', () => {
    // 3,000 rounds a minute apart (50 hours), each over in a second: a 1-hour horizon keeps those of the last two hours and one clock step (1,024 events).
    const start = Date.parse('2026-11-20T00:00:00.000Z');
    const events = [
      session('tok_alice_000000000000000', 'alice', false, '2026-11-20T00:00:00.000Z'),
      ...Array.from({ length: 3000 }, (_, i) =>
        paidRound(
          i + 1,
          'tok_alice_000000000000000',
          'alice',
          1000,
          i % 3 ? 0 : 2500,
          new Date(start + i * 60_000).toISOString(),
        ),
      ).flat(),
    ];
    const run = (memoryHorizonMs: number) => {
      const analytics = new AnalyticsFold({ filter: {}, catalog, timeZoneOf: () => 'Asia/Seoul', memoryHorizonMs });
      for (const event of events) analytics.apply(event);
      return analytics;
    };
    const bounded = run(3_600_000);
    const unbounded = run(365 * 86_400_000);
    expect(unbounded.index.rounds.size).toBe(3000);
    expect(bounded.index.rounds.size).toBeLessThan(400);
    expect(bounded.index.transactions.size).toBeLessThan(800);
    expect(bounded.index.forgotten).toBeGreaterThan(5000);
    for (const name of ['agent', 'game-performance', 'wallet-delivery'] as const)
      expect(bounded.report(name)).toEqual(unbounded.report(name));
  });
});
