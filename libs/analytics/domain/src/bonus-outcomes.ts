/** Bonus outcomes: one row per bonus call, from its `playerBonus` stream. */
import type { LogEvent } from './log-index.js';
import type { BonusOutcomeRow } from './report-model.js';

const secondsBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

export class BonusOutcomesFold {
  private readonly calls = new Map<number, BonusOutcomeRow>();

  apply({ event }: LogEvent): void {
    if (event.type === 'BonusCallRegistered') {
      const data = event.data;
      this.calls.set(data.issueId, {
        operatorId: data.operatorId,
        playerId: data.playerId,
        issueId: data.issueId,
        platformId: data.platformId,
        bonusType: data.bonusType,
        providerId: data.providerId,
        gameIds: data.gameIds.join(' '),
        currency: data.currency,
        spinsGranted: data.spinAmount,
        spinsUsed: 0,
        totalWinMinor: 0,
        winCapMinor: data.callAmountMinor,
        status: 'active',
        reason: null,
        spinsForfeited: null,
        registeredAt: data.registeredAt,
        closedAt: null,
        durationSeconds: null,
      });
      return;
    }
    switch (event.type) {
      case 'FreeSpinStarted':
        return this.update(event.data.issueId, (row) => ({
          spinsUsed: Math.max(row.spinsUsed, event.data.spinNumber),
        }));
      case 'FreeSpinSettled':
        return this.update(event.data.issueId, () => ({ totalWinMinor: event.data.totalWinMinor }));
      case 'RegularBonusSpinSettled':
        return this.update(event.data.issueId, (row) => ({
          spinsUsed: Math.max(row.spinsUsed, event.data.spinNumber),
          totalWinMinor: event.data.totalWinMinor,
        }));
      case 'BonusCallCompleted':
        return this.close(event.data.issueId, 'completed', event.data.reason, null, event.data.completedAt);
      case 'BonusCallExpired':
        return this.close(event.data.issueId, 'expired', 'expired', event.data.spinsForfeited, event.data.expiredAt);
      case 'BonusCallCanceled':
        return this.close(event.data.issueId, 'canceled', 'canceled', event.data.spinsForfeited, event.data.canceledAt);
      default:
        return;
    }
  }

  /** By operator, player, then issueId: the same order however the log interleaves them. */
  rows(): BonusOutcomeRow[] {
    return [...this.calls.values()].sort(
      (a, b) => compareText(a.operatorId, b.operatorId) || compareText(a.playerId, b.playerId) || a.issueId - b.issueId,
    );
  }

  /** The row of a call, forgotten here (an export emits a call once it ended and keeps no more of it). */
  take(issueId: number): BonusOutcomeRow | undefined {
    const row = this.calls.get(issueId);
    this.calls.delete(issueId);
    return row;
  }

  /** A call registered before the replayed range (or filtered out) has no row to update: it stays out. */
  private update(issueId: number, change: (row: BonusOutcomeRow) => Partial<BonusOutcomeRow>): void {
    const row = this.calls.get(issueId);
    if (row) Object.assign(row, change(row));
  }

  private close(
    issueId: number,
    status: BonusOutcomeRow['status'],
    reason: string,
    spinsForfeited: number | null,
    closedAt: string,
  ): void {
    this.update(issueId, (row) => ({
      status,
      reason,
      spinsForfeited,
      closedAt,
      durationSeconds: secondsBetween(row.registeredAt, closedAt),
    }));
  }
}

/** Code-unit order, not locale order: the output must not depend on the machine's locale. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
