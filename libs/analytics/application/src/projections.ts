/**
 * The live projections rebuilt from the log: the bonus-ledger's read model (one record per bonus
 * call, by the same projection rule the live one applies) and the launch sessions as the
 * game-server reads them. The replay must rebuild them identical.
 */
import { projectBonusCall } from '@reelstream/bonus-application';
import type { LogEvent } from '@reelstream/analytics-domain';
import type { BonusCallRecord, GameSessionStarted } from '@reelstream/contracts';

export type SessionView = GameSessionStarted['data'] & { readonly demo: boolean; readonly endedAt?: string };

export class ReplayProjections {
  private readonly bonusCalls = new Map<number, BonusCallRecord>();
  private readonly sessionViews = new Map<string, SessionView>();

  apply({ event }: LogEvent): void {
    switch (event.type) {
      case 'BonusCallRegistered':
      case 'FreeSpinStarted':
      case 'FreeSpinSettled':
      case 'RegularBonusSpinSettled':
      case 'BonusCallCompleted':
      case 'BonusCallExpired':
      case 'BonusCallCanceled':
        this.bonusCalls.set(event.data.issueId, projectBonusCall(this.bonusCalls.get(event.data.issueId), event));
        return;
      case 'GameSessionStarted':
        this.sessionViews.set(event.data.token, { ...event.data, demo: event.data.demo ?? false });
        return;
      case 'GameSessionEnded': {
        const session = this.sessionViews.get(event.data.token);
        if (session) this.sessionViews.set(event.data.token, { ...session, endedAt: event.data.endedAt });
        return;
      }
      default:
        return;
    }
  }

  /** Every bonus call record, by issueId (the order the live read model lists them in). */
  bonusRecords(): BonusCallRecord[] {
    return [...this.bonusCalls.values()].sort((a, b) => a.issueId - b.issueId);
  }

  session(token: string): SessionView | undefined {
    return this.sessionViews.get(token);
  }

  /** Every session, by token. */
  sessions(): SessionView[] {
    return [...this.sessionViews.values()].sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : 0));
  }
}
