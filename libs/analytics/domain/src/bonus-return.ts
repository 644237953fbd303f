/**
 * Bonus return: what bonus players played with their own money in the days after a bonus, next to
 * what the bonus paid, per operator, cohort day (the day, in the operator's zone, the bonuses were
 * registered) and currency.
 *
 * A bonus's window opens when its call is registered (`BonusCallRegistered.registeredAt`: every
 * bonus has one, also one that expired unplayed) and lasts `windowDays` × 24 hours, or until the
 * same player's next bonus is registered, whichever comes first: a player with several bonuses has
 * each bet counted once, for the latest bonus before it. Money is counted as the agent report
 * counts it, at the wallet's answer: paid bets accepted (less those canceled) and the wins of paid
 * rounds, in the bonus's currency. A free spin's win and a steered spin's win (a Regular Bonus
 * Call's) are what the bonus paid: in bonusCost, not in wins; a steered spin's bet is in turnover.
 * Streamer sessions are left out, as in the agent report.
 */
import type { WalletRequest } from '@reelstream/contracts';
import { compareText } from './bonus-outcomes.js';
import type { LogEvent, LogIndex } from './log-index.js';
import type { OperatorDays } from './operator-day.js';
import { CountedTransactions } from './counted-transactions.js';
import type { BonusReturnRow } from './report-model.js';
import { entryOf } from './map-entry.js';

export const DEFAULT_BONUS_RETURN_WINDOW_DAYS = 7;
const DAY_MS = 86_400_000;

interface Cohort {
  row: BonusReturnRow;
  players: Set<string>;
  /** When each of its bonuses' windows would end (their N days), for openWindows. */
  windowEnds: number[];
}

interface Window {
  cohort: Cohort;
  currency: string;
  startMs: number;
  endMs: number;
}

interface Counted {
  cohort: Cohort;
  betMinor: number;
  winMinor: number;
}

export class BonusReturnFold {
  private readonly cohorts = new Map<string, Cohort>();
  /** `operator\0player` → the window of the player's latest bonus: one per bonus player. */
  private readonly windows = new Map<string, Window>();
  /** issueId → the cohort its cost is counted in. */
  private readonly costs = new Map<number, Cohort>();
  private readonly counted: CountedTransactions<Counted>;
  private lastMs: number | undefined;

  constructor(
    private readonly days: OperatorDays,
    private readonly windowDays: number,
    horizonMs: number,
  ) {
    this.counted = new CountedTransactions(horizonMs, ({ cohort, betMinor, winMinor }) => {
      cohort.row.turnoverMinor -= betMinor;
      cohort.row.winsMinor -= winMinor;
    });
  }

  advance(nowMs: number): void {
    this.counted.advance(nowMs);
  }

  apply(entry: LogEvent, index: LogIndex): void {
    const { event } = entry;
    if (this.lastMs === undefined || entry.occurredAtMs > this.lastMs) this.lastMs = entry.occurredAtMs;
    switch (event.type) {
      case 'BonusCallRegistered': {
        const { operatorId, playerId, currency, registeredAt, issueId } = event.data;
        const startMs = Date.parse(registeredAt);
        const cohort = this.cohort(operatorId, this.days.dayOf(operatorId, startMs), currency);
        const endMs = startMs + this.windowDays * DAY_MS;
        cohort.row.bonuses += 1;
        cohort.players.add(playerId);
        cohort.windowEnds.push(endMs);
        this.costs.set(issueId, cohort);
        this.windows.set(`${operatorId}\u0000${playerId}`, { cohort, currency, startMs, endMs });
        return;
      }
      case 'FreeSpinSettled':
      case 'RegularBonusSpinSettled': {
        const cohort = this.costs.get(event.data.issueId);
        if (cohort && !index.isStreamerRound(event.data.roundId)) cohort.row.bonusCostMinor += event.data.winMinor;
        return;
      }
      case 'WalletSucceeded':
        this.counted.answered(entry.streamId, event.data, index, (request, atMs) =>
          this.moneyMoved(request, atMs, index),
        );
        return;
      case 'CancelSucceeded':
        return this.counted.canceled(entry.streamId);
      default:
        return;
    }
  }

  rows(): BonusReturnRow[] {
    const endMs = this.lastMs ?? 0;
    return [...this.cohorts.values()]
      .map(({ row, players, windowEnds }) => ({
        ...row,
        players: players.size,
        ggrMinor: row.turnoverMinor - row.winsMinor,
        netMinor: row.turnoverMinor - row.winsMinor - row.bonusCostMinor,
        openWindows: windowEnds.filter((end) => end > endMs).length,
      }))
      .sort(
        (a, b) =>
          compareText(a.operatorId, b.operatorId) ||
          compareText(a.cohortDay, b.cohortDay) ||
          compareText(a.currency, b.currency),
      );
  }

  /** A paid bet or win inside its player's bonus window, counted in that bonus's cohort. */
  private moneyMoved(request: WalletRequest, atMs: number, index: LogIndex): Counted | undefined {
    const window = this.windows.get(`${request.operatorId}\u0000${request.playerId}`);
    if (!window || window.currency !== request.currency || atMs < window.startMs || atMs >= window.endMs)
      return undefined;
    const round = index.rounds.get(request.roundId);
    // A free spin's win, or a steered spin's, is the bonus paying: it is in bonusCost.
    const bonusRound = round ? round.bonusId !== 0 : request.bonusId !== 0;
    const betMinor =
      request.command === 'bet' ? request.amountMinor : request.command === 'betwin' ? request.betMinor : 0;
    const rawWin =
      request.command === 'win' ? request.amountMinor : request.command === 'betwin' ? request.winMinor : 0;
    const winMinor = bonusRound ? 0 : rawWin;
    if (betMinor === 0 && winMinor === 0) return undefined;
    window.cohort.row.turnoverMinor += betMinor;
    window.cohort.row.winsMinor += winMinor;
    return { cohort: window.cohort, betMinor, winMinor };
  }

  private cohort(operatorId: string, cohortDay: string, currency: string): Cohort {
    const key = `${operatorId}\u0000${cohortDay}\u0000${currency}`;
    return entryOf(this.cohorts, key, () => ({
      players: new Set(),
      windowEnds: [],
      row: {
        operatorId,
        cohortDay,
        timeZone: this.days.timeZone(operatorId),
        currency,
        windowDays: this.windowDays,
        bonuses: 0,
        players: 0,
        bonusCostMinor: 0,
        turnoverMinor: 0,
        winsMinor: 0,
        ggrMinor: 0,
        netMinor: 0,
        openWindows: 0,
      },
    }));
  }
}
