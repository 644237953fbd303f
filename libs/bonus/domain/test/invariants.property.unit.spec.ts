/**
 * Property tests: random sequences of commands for several players, decided and applied one by
 * one; after every step the bonus invariants hold, and replaying the produced events rebuilds the
 * same accounts. 1,000 sequences per property (npm test runs them all).
 */
import { describe, expect, it } from '@jest/globals';
import { eventToAppend, isErrorCode, isRefusal, type PlayerBonusEvent } from '@reelstream/contracts';
import fc from 'fast-check';
import { bonusDecider, type BonusCall, type BonusDomainCommand, type PlayerBonusAccount } from '../src/index.js';
import { catalog, terms } from './fixtures.js';

const PLAYERS = 3;
const RUNS = 1_000;
const START = Date.parse('2026-05-01T00:00:00.000Z');
const HOUR = 3_600_000;

type Action =
  | {
      kind: 'register';
      spinAmount: number;
      callAmountMinor: number;
      expiresInMs: number;
      games: readonly number[];
      bonusType: 1 | 2;
      regularFeature: boolean;
    }
  | { kind: 'cancel' | 'expire'; pick: number }
  | { kind: 'start'; pick: number; roundPick: number; gamePick: number }
  | { kind: 'settle'; pick: number; roundPick: number; rawWinMinor: number }
  | { kind: 'steer'; pick: number; roundPick: number; reelWinMinor: number; exact: boolean };

interface Step {
  player: number;
  advanceMs: number;
  action: Action;
}

const gameChoices = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom([101], [101, 102], [102]) },
  { weight: 1, arbitrary: fc.constantFrom([101, 103], [101, 201], [999]) },
);
const action: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('register' as const),
      spinAmount: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 1, max: 6 }) },
        { weight: 1, arbitrary: fc.integer({ min: 0, max: 101 }) },
      ),
      callAmountMinor: fc.integer({ min: 1, max: 2_000 }),
      expiresInMs: fc.oneof(
        { weight: 9, arbitrary: fc.integer({ min: 1, max: 24 * HOUR }) },
        { weight: 1, arbitrary: fc.integer({ min: -HOUR, max: 0 }) },
      ),
      games: gameChoices,
      bonusType: fc.oneof(
        { weight: 9, arbitrary: fc.constant(1 as const) },
        { weight: 1, arbitrary: fc.constant(2 as const) },
      ),
      regularFeature: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('cancel' as const, 'expire' as const), pick: fc.nat(9) }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('start' as const),
      pick: fc.nat(9),
      roundPick: fc.nat(9),
      gamePick: fc.nat(9),
    }),
  },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      pick: fc.nat(9),
      roundPick: fc.nat(9),
      rawWinMinor: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 800 })),
    }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('steer' as const),
      pick: fc.nat(9),
      roundPick: fc.nat(9),
      reelWinMinor: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 800 })),
      exact: fc.boolean(),
    }),
  },
);
const advance = fc.oneof(
  { weight: 15, arbitrary: fc.integer({ min: 0, max: 10 * 60_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 24 * HOUR }) },
);
const steps = fc.array(fc.record({ player: fc.nat(PLAYERS - 1), advanceMs: advance, action }), {
  minLength: 1,
  maxLength: 80,
  size: 'max',
});

/** Turns an abstract step into a command against the player's current account (picks resolve to its bonuses and rounds). */
function toCommand(
  step: Step,
  account: PlayerBonusAccount,
  now: number,
  ids: { next: () => number },
): BonusDomainCommand {
  const metadata = { now: new Date(now).toISOString() };
  const bonuses = [...account.bonuses.values()];
  const newest = bonuses[bonuses.length - 1];
  // Mostly the active (or newest) bonus, sometimes an older one, rarely one that does not exist.
  const pickBonus = (pick: number): BonusCall | undefined => {
    if (pick < 6)
      return (account.activeIssueId === null ? undefined : account.bonuses.get(account.activeIssueId)) ?? newest;
    if (pick < 9) return bonuses[pick % Math.max(1, bonuses.length)];
    return undefined;
  };
  const { action } = step;
  switch (action.kind) {
    case 'register':
      return {
        type: 'RegisterBonusCall',
        data: {
          issueId: ids.next(),
          platformId: `p-${ids.next()}`,
          operatorId: 'demo',
          playerId: `player_${step.player}`,
          providerId: 1,
          gameIds: action.games,
          bonusType: action.bonusType,
          currency: 'EUR',
          callAmountMinor: action.callAmountMinor,
          spinAmount: action.spinAmount,
          baseBetAmountMinor: 20,
          expireAt: new Date(now + action.expiresInMs).toISOString(),
          catalog,
          features: { regularBonusCall: action.regularFeature },
          terms,
        },
        metadata,
      };
    case 'cancel':
    case 'expire': {
      const issueId = pickBonus(action.pick)?.issueId ?? 1;
      return action.kind === 'cancel'
        ? { type: 'CancelBonusCall', data: { issueId }, metadata }
        : { type: 'ExpireBonusCall', data: { issueId }, metadata };
    }
    case 'start': {
      const bonus = pickBonus(action.pick);
      // Mostly a new round, sometimes a retry of an earlier one.
      const rounds = bonus ? [...bonus.rounds.keys()] : [];
      const roundId =
        action.roundPick < 7 ? ids.next() : (rounds[action.roundPick % Math.max(1, rounds.length)] ?? ids.next());
      const gameId = action.gamePick < 8 ? (action.gamePick % 2 === 0 ? 101 : 102) : action.gamePick === 8 ? 103 : 201;
      return { type: 'StartFreeSpin', data: { issueId: bonus?.issueId ?? 1, gameId, roundId }, metadata };
    }
    case 'settle': {
      const bonus = pickBonus(action.pick);
      // Mostly the open round, sometimes a settled one (a retry) or one never started.
      const rounds = bonus ? [...bonus.rounds.keys()] : [];
      const roundId =
        action.roundPick < 7
          ? (bonus?.openRoundId ?? ids.next())
          : action.roundPick < 9
            ? (rounds[action.roundPick % Math.max(1, rounds.length)] ?? ids.next())
            : ids.next();
      return {
        type: 'SettleFreeSpin',
        data: { issueId: bonus?.issueId ?? 1, roundId, rawWinMinor: action.rawWinMinor, transactionId: ids.next() },
        metadata,
      };
    }
    case 'steer': {
      const bonus = pickBonus(action.pick);
      // Mostly a new round, sometimes a retry of one already steered.
      const rounds = bonus ? [...bonus.steeredRounds.keys()] : [];
      const roundId =
        action.roundPick < 8 ? ids.next() : (rounds[action.roundPick % Math.max(1, rounds.length)] ?? ids.next());
      const left = bonus ? bonus.callAmountMinor - bonus.totalWinMinor : 0;
      // Half the time the spin that delivers the rest: the reels' win (when it fits) topped up to what is left.
      const reelWinMinor = action.exact ? Math.min(action.reelWinMinor, Math.max(0, left)) : action.reelWinMinor;
      const topUpMinor = action.exact ? Math.max(0, left - reelWinMinor) : 0;
      return {
        type: 'SettleRegularSpin',
        data: {
          issueId: bonus?.issueId ?? 1,
          roundId,
          gameId: action.pick % 5 === 4 ? 103 : 101,
          betMinor: 20,
          reelWinMinor,
          topUpMinor,
          outcome: { draws: [action.roundPick] },
        },
        metadata,
      };
    }
  }
}

interface Run {
  accounts: PlayerBonusAccount[];
  streams: PlayerBonusEvent[][];
}

/** One decided step: the account before and after, the events produced, and the command with its time. */
interface Decided {
  before: PlayerBonusAccount;
  after: PlayerBonusAccount;
  produced: readonly PlayerBonusEvent[];
  command: BonusDomainCommand;
}

/** Decides and applies every step, calling `onStep` after each one. */
function play(sequence: readonly Step[], onStep: (step: Decided, run: Run) => void): Run {
  const run: Run = {
    accounts: Array.from({ length: PLAYERS }, () => bonusDecider.initialState),
    streams: Array.from({ length: PLAYERS }, () => []),
  };
  let now = START;
  let id = 1_000;
  const ids = { next: () => ++id };
  for (const step of sequence) {
    now += step.advanceMs;
    const before = run.accounts[step.player] as PlayerBonusAccount;
    const command = toCommand(step, before, now, ids);
    const decision = bonusDecider.decide(command, before);
    if (isRefusal(decision)) {
      check(isErrorCode(decision.code), `refusal without a catalogue code: ${decision.code}`);
      onStep({ before, after: before, produced: [], command }, run);
      continue;
    }
    const after = decision.reduce(bonusDecider.evolve, before);
    run.accounts[step.player] = after;
    (run.streams[step.player] as PlayerBonusEvent[]).push(...decision);
    onStep({ before, after, produced: decision, command }, run);
  }
  return run;
}

/** A failed invariant; plain throws keep the 1,000 × 80 steps fast (fast-check shrinks and reports it). */
function check(condition: boolean, invariant: string): void {
  if (!condition) throw new Error(`invariant broken: ${invariant}`);
}

const context = {
  correlationId: 'prop',
  causationId: 'prop',
  operatorId: 'demo',
  occurredAt: '2026-05-01T00:00:00.000Z',
};

describe('bonus invariants over random command sequences (fast-check)', () => {
  /** Checks every invariant after every step of one sequence, and the replay at its end. */
  function invariantsHold(sequence: readonly Step[]): void {
    const winsByIssue = new Map<number, number>();
    const run = play(sequence, ({ before, after, produced, command }) => {
      const now = Date.parse(command.metadata.now);
      // At most one active bonus call per player, and activeIssueId names it.
      const active = [...after.bonuses.values()].filter((bonus) => bonus.status === 'active');
      check(active.length <= 1, 'more than one active bonus call');
      check(after.activeIssueId === (active[0]?.issueId ?? null), 'activeIssueId does not name the active bonus');

      for (const event of produced) {
        // Every event passes its contract schema, so it can be appended.
        eventToAppend(event, context);
        if (event.type === 'FreeSpinSettled' || event.type === 'RegularBonusSpinSettled')
          winsByIssue.set(event.data.issueId, (winsByIssue.get(event.data.issueId) ?? 0) + event.data.winMinor);
        if (event.type === 'FreeSpinStarted') {
          // A spin starts only on an active bonus with no open spin and spins remaining.
          const bonus = before.bonuses.get(event.data.issueId);
          check(
            bonus?.status === 'active' && bonus.openRoundId === null,
            'a spin started on a bonus that is not active or has an open spin',
          );
          check(event.data.spinNumber <= (bonus?.spinAmount ?? 0), 'a spin started beyond spinAmount');
        }
      }

      for (const bonus of after.bonuses.values()) {
        // Spins used ≤ spinAmount; total free-spin wins (summed from the events) ≤ callAmount.
        check(bonus.spinAmount === null || bonus.spinsUsed <= bonus.spinAmount, 'more spins used than granted');
        check(
          bonus.totalWinMinor === (winsByIssue.get(bonus.issueId) ?? 0),
          'totalWin differs from the sum of the settled wins',
        );
        check(bonus.totalWinMinor <= bonus.callAmountMinor, 'wins exceed callAmount');
      }

      // A bonus call ends only by a rule: expiry at or after its expireAt, a cancel of that very
      // bonus call, or completion when its spins are used or its win cap reached. Anything else
      // (an early expiry to make room for a new registration, say) is a bug.
      for (const event of produced) {
        if (
          event.type !== 'BonusCallExpired' &&
          event.type !== 'BonusCallCanceled' &&
          event.type !== 'BonusCallCompleted'
        )
          continue;
        const ending = before.bonuses.get(event.data.issueId);
        check(ending?.status === 'active', `${event.type} of bonus ${event.data.issueId}, which was not active`);
        if (!ending) continue;
        if (event.type === 'BonusCallExpired')
          check(now >= Date.parse(ending.expireAt), `bonus ${ending.issueId} expired before its expireAt`);
        if (event.type === 'BonusCallCanceled')
          check(
            command.type === 'CancelBonusCall' && command.data.issueId === ending.issueId,
            `bonus ${ending.issueId} canceled by ${command.type}`,
          );
        if (event.type === 'BonusCallCompleted') {
          const done = after.bonuses.get(ending.issueId);
          const used = done !== undefined && done.spinAmount !== null && done.spinsSettled === done.spinAmount;
          const capped = done !== undefined && done.totalWinMinor >= done.callAmountMinor;
          check(
            (command.type === 'SettleFreeSpin' && (used || capped)) || (command.type === 'SettleRegularSpin' && capped),
            `bonus ${ending.issueId} completed with spins and win cap left`,
          );
        }
      }
      // A registration is accepted only when the player has no active bonus call left after the
      // decision's own (lawful, checked above) expiry of a bonus past its expireAt.
      if (produced.some((event) => event.type === 'BonusCallRegistered')) {
        const blocking = [...before.bonuses.values()].filter(
          (bonus) =>
            bonus.status === 'active' &&
            !produced.some((event) => event.type === 'BonusCallExpired' && event.data.issueId === bonus.issueId),
        );
        check(blocking.length === 0, `a registration accepted while bonus ${blocking[0]?.issueId} was active`);
      }

      // A terminal state never changes, but for the settlement of the spin it had in flight
      //: the same status, that round settled, nothing else.
      for (const [issueId, bonus] of before.bonuses) {
        if (bonus.status === 'active') continue;
        const later = after.bonuses.get(issueId);
        if (later === bonus) continue;
        const settledOpen =
          bonus.openRoundId !== null &&
          produced.length === 1 &&
          produced[0]?.type === 'FreeSpinSettled' &&
          produced[0].data.roundId === bonus.openRoundId;
        // A Regular Bonus Call's steered spin whose bet was taken before the end is recorded after it (ADR 0012).
        const steeredInFlight =
          bonus.bonusType === 2 && produced.length === 1 && produced[0]?.type === 'RegularBonusSpinSettled';
        check(
          (settledOpen &&
            later?.status === bonus.status &&
            later.openRoundId === null &&
            later.spinsUsed === bonus.spinsUsed) ||
            (steeredInFlight && later?.status === bonus.status),
          `terminal bonus ${issueId} changed`,
        );
      }
    });
    // Replaying the produced events gives the same state.
    run.streams.forEach((stream, player) => {
      expect(stream.reduce(bonusDecider.evolve, bonusDecider.initialState)).toEqual(run.accounts[player]);
    });
  }

  it(`${RUNS} sequences: one active per player, spins used ≤ spinAmount, wins ≤ callAmount, terminal states frozen, replay equal`, () => {
    fc.assert(fc.property(steps, invariantsHold), { numRuns: RUNS });
  });
});

describe('the random sequences exercise the whole lifecycle (so the properties above are not vacuous)', () => {
  it('over 1,000 sequences every event type and the main refusals occur many times', () => {
    const seen = new Map<string, number>();
    const count = (key: string) => seen.set(key, (seen.get(key) ?? 0) + 1);
    for (const sequence of fc.sample(steps, { numRuns: RUNS, seed: 42 })) {
      let now = START;
      let id = 1_000;
      const ids = { next: () => ++id };
      const accounts = Array.from({ length: PLAYERS }, () => bonusDecider.initialState);
      for (const step of sequence) {
        now += step.advanceMs;
        const before = accounts[step.player] as PlayerBonusAccount;
        const decision = bonusDecider.decide(toCommand(step, before, now, ids), before);
        if (isRefusal(decision)) {
          count(decision.code);
          continue;
        }
        for (const event of decision)
          count(event.type === 'BonusCallCompleted' ? `Completed:${event.data.reason}` : event.type);
        accounts[step.player] = decision.reduce(bonusDecider.evolve, before);
      }
    }
    for (const key of [
      'BonusCallRegistered',
      'FreeSpinStarted',
      'FreeSpinSettled',
      'Completed:spins_used',
      'Completed:win_cap_reached',
      'BonusCallExpired',
      'BonusCallCanceled',
    ]) {
      expect(seen.get(key) ?? 0).toBeGreaterThanOrEqual(50);
    }
    for (const code of [
      'ACTIVE_BONUS_EXISTS',
      'GAME_NOT_IN_BONUS',
      'FREE_SPIN_IN_PROGRESS',
      'FREE_SPIN_NOT_STARTED',
      'BONUS_EXPIRED',
      'BONUS_NOT_ACTIVE',
      'BONUS_TYPE_UNAVAILABLE',
      'EXPIRE_AT_IN_PAST',
    ]) {
      expect(seen.get(code) ?? 0).toBeGreaterThanOrEqual(20);
    }
  });
});
