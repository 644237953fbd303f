/**
 * The agent report (the spec's agent is the operator): money the wallet actually moved, per
 * operator, day in its time zone and currency. Rounds of streamer sessions are left out (spec
 * §4.3: "the player's report is not counted in the agent's report"); demo sessions move no money.
 *
 * What bonuses cost, in two columns that are not added up: `bonusNotional`, the base bet of every
 * free spin on the day it settled (value given, no money moved), and `bonusPaid`, money paid: the
 * free-spin wins the wallet credited, and what a Regular Bonus Call delivered (its steered wins,
 * top-up included) on the day it completed, expired or was canceled, a steered spin settled after
 * that (a bet in flight when it ended) on its own day.
 */
import { BonusTypes, type WalletRequest } from '@reelstream/contracts';
import { compareText } from './bonus-outcomes.js';
import type { BonusFacts, LogEvent, LogIndex } from './log-index.js';
import type { OperatorDays } from './operator-day.js';
import { CountedTransactions } from './counted-transactions.js';
import type { AgentRow } from './report-model.js';
import { entryOf } from './map-entry.js';

interface Bucket {
  row: AgentRow;
  players: Set<string>;
}

interface Counted {
  bucket: Bucket;
  betMinor: number;
  winMinor: number;
  freeSpin: boolean;
}

/** Bet and win of a request, whichever command carries them. */
function amountsOf(request: WalletRequest): { betMinor: number; winMinor: number } {
  if (request.command === 'bet') return { betMinor: request.amountMinor, winMinor: 0 };
  if (request.command === 'win') return { betMinor: 0, winMinor: request.amountMinor };
  return { betMinor: request.betMinor, winMinor: request.winMinor };
}

/** A canceled transaction's money, taken back from the row it was counted in. */
function revertCounted({ bucket: { row }, betMinor, winMinor, freeSpin }: Counted): void {
  row.betsMinor -= betMinor;
  row.winsMinor -= winMinor;
  if (freeSpin) {
    row.freeSpinWinsMinor -= winMinor;
    row.bonusPaidMinor -= winMinor;
  }
}

export class AgentReportFold {
  private readonly buckets = new Map<string, Bucket>();
  private readonly counted: CountedTransactions<Counted>;
  /** Wallet answers whose request the index no longer (or never) held: their money is not counted. */
  unmatchedAnswers = 0;
  private readonly baseBets = new Map<number, number>();

  constructor(
    private readonly days: OperatorDays,
    horizonMs: number,
  ) {
    this.counted = new CountedTransactions(horizonMs, revertCounted);
  }

  advance(nowMs: number): void {
    this.counted.advance(nowMs);
  }

  apply(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    switch (event.type) {
      case 'WalletSucceeded':
        if (
          !this.counted.answered(entry.streamId, event.data, index, (request, atMs) =>
            this.moneyMoved(request, atMs, index),
          )
        )
          this.unmatchedAnswers += 1;
        return;
      case 'CancelSucceeded':
        return this.counted.canceled(entry.streamId);
      case 'FreeSpinStarted':
        this.baseBets.set(event.data.issueId, event.data.baseBetAmountMinor);
        return;
      case 'FreeSpinSettled': {
        const bonus = index.bonuses.get(event.data.issueId);
        const baseBet = this.baseBets.get(event.data.issueId);
        if (!bonus || baseBet === undefined || index.isStreamerRound(event.data.roundId)) return;
        const day = this.days.dayOf(bonus.operatorId, Date.parse(event.data.settledAt));
        this.bucket(bonus.operatorId, day, bonus.currency).row.bonusNotionalMinor += baseBet;
        return;
      }
      case 'RegularBonusSpinSettled': {
        // Counted here only once its bonus call ended; before, its end counts it with the others.
        const bonus = index.bonuses.get(event.data.issueId);
        if (!bonus?.ended || index.isStreamerRound(event.data.roundId)) return;
        return this.bonusPaid(bonus, event.data.settledAt, event.data.winMinor);
      }
      case 'BonusCallCompleted':
        return this.regularBonusEnded(event.data.issueId, event.data.completedAt, index);
      case 'BonusCallExpired':
        return this.regularBonusEnded(event.data.issueId, event.data.expiredAt, index);
      case 'BonusCallCanceled':
        return this.regularBonusEnded(event.data.issueId, event.data.canceledAt, index);
      default:
        return;
    }
  }

  rows(): AgentRow[] {
    return [...this.buckets.values()]
      .map(({ row, players }) => ({ ...row, ggrMinor: row.betsMinor - row.winsMinor, players: players.size }))
      .sort(
        (a, b) =>
          compareText(a.operatorId, b.operatorId) || compareText(a.day, b.day) || compareText(a.currency, b.currency),
      );
  }

  /**
   * Players per currency over every day of the report (an operator's player counted once however many
   * days they played): the daily rows' `players` cannot be added up for that.
   */
  playersPerCurrency(): Map<string, number> {
    const players = new Map<string, Set<string>>();
    for (const { row, players: those } of this.buckets.values()) {
      const set = players.get(row.currency) ?? new Set<string>();
      for (const playerId of those) set.add(`${row.operatorId}\u0000${playerId}`);
      players.set(row.currency, set);
    }
    return new Map([...players].map(([currency, set]) => [currency, set.size]));
  }

  /** A Regular Bonus Call's end: what its steered spins delivered (the index has counted them, whatever the filter). */
  private regularBonusEnded(issueId: number, at: string, index: LogIndex): void {
    const bonus = index.bonuses.get(issueId);
    if (bonus?.bonusType !== BonusTypes.regular) return;
    this.bonusPaid(bonus, at, bonus.steeredWinMinor);
  }

  private bonusPaid(bonus: BonusFacts, at: string, amountMinor: number): void {
    const day = this.days.dayOf(bonus.operatorId, Date.parse(at));
    this.bucket(bonus.operatorId, day, bonus.currency).row.bonusPaidMinor += amountMinor;
  }

  private moneyMoved(request: WalletRequest, atMs: number, index: LogIndex): Counted {
    const { betMinor, winMinor } = amountsOf(request);
    const round = index.rounds.get(request.roundId);
    const freeSpin = request.command === 'win' && (round ? round.kind === 'free' : request.bonusId !== 0);
    const bucket = this.bucket(request.operatorId, this.days.dayOf(request.operatorId, atMs), request.currency);
    bucket.row.betsMinor += betMinor;
    bucket.row.winsMinor += winMinor;
    if (freeSpin) {
      bucket.row.freeSpinWinsMinor += winMinor;
      bucket.row.bonusPaidMinor += winMinor;
    }
    bucket.players.add(request.playerId);
    return { bucket, betMinor, winMinor, freeSpin };
  }

  private bucket(operatorId: string, day: string, currency: string): Bucket {
    const key = `${operatorId}\u0000${day}\u0000${currency}`;
    return entryOf(this.buckets, key, () => ({
      players: new Set(),
      row: {
        operatorId,
        day,
        timeZone: this.days.timeZone(operatorId),
        currency,
        betsMinor: 0,
        winsMinor: 0,
        ggrMinor: 0,
        freeSpinWinsMinor: 0,
        bonusNotionalMinor: 0,
        bonusPaidMinor: 0,
        players: 0,
      },
    }));
  }
}
