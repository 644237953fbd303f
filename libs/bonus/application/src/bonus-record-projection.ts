/**
 * The status read model of one bonus call (decisions.md D12; the API view is `toBonusCallStatus`):
 * how each event changes the record. Pure, so the projection and a rebuild from the log agree.
 * What is left (spins, win cap) is bonus-domain's arithmetic, the one the decider spends from.
 */
import { spinsLeft, termsOf, winCapLeftMinor } from '@reelstream/bonus-domain';
import type { BonusCallRecord, PlayerBonusEvent } from '@reelstream/contracts';

export class ProjectionOrderError extends Error {
  override readonly name = 'ProjectionOrderError';
  constructor(
    readonly issueId: number,
    type: string,
  ) {
    super(`${type} for bonus call ${issueId}, which the read model has not seen registered`);
  }
}

export function projectBonusCall(current: BonusCallRecord | undefined, event: PlayerBonusEvent): BonusCallRecord {
  if (event.type === 'BonusCallRegistered') {
    const { data } = event;
    const fresh = { ...termsOf(data), spinsUsed: 0, totalWinMinor: 0 };
    return {
      ...fresh,
      spinsLeft: spinsLeft(fresh),
      winCapLeftMinor: winCapLeftMinor(fresh),
      openRoundId: null,
      status: 'active',
      createdAt: data.registeredAt,
    };
  }
  if (!current) throw new ProjectionOrderError(event.data.issueId, event.type);
  switch (event.type) {
    case 'FreeSpinStarted': {
      const started = { ...current, spinsUsed: event.data.spinNumber };
      return { ...started, spinsLeft: spinsLeft(started), openRoundId: event.data.roundId };
    }
    case 'FreeSpinSettled': {
      const settled = { ...current, totalWinMinor: event.data.totalWinMinor };
      return {
        ...settled,
        winCapLeftMinor: winCapLeftMinor(settled),
        openRoundId: current.openRoundId === event.data.roundId ? null : current.openRoundId,
      };
    }
    case 'BonusCallCompleted':
      return { ...current, status: 'completed', completedAt: event.data.completedAt };
    case 'BonusCallExpired':
      // A spin in flight stays open until it settles (issue 10.7).
      return { ...current, status: 'expired', expiredAt: event.data.expiredAt };
    case 'BonusCallCanceled':
      return { ...current, status: 'canceled', canceledAt: event.data.canceledAt };
    default: {
      const unexpected: never = event;
      throw new Error(`no projection rule for ${(unexpected as { type: string }).type}`);
    }
  }
}
