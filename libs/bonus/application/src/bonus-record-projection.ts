/**
 * The status read model of one bonus call (decisions.md D12; the API view is `toBonusCallStatus`):
 * how each event changes the record. Pure, so the projection and a rebuild from the log agree.
 */
import { termsOf } from '@reelstream/bonus-domain';
import type { BonusCallRecord, PlayerBonusEvent } from '@reelstream/contracts';
import { subtractMinor } from '@reelstream/money';

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
    return {
      ...termsOf(data),
      spinsUsed: 0,
      spinsLeft: data.spinAmount,
      totalWinMinor: 0,
      winCapLeftMinor: data.callAmountMinor,
      openRoundId: null,
      status: 'active',
      createdAt: data.registeredAt,
    };
  }
  if (!current) throw new ProjectionOrderError(event.data.issueId, event.type);
  switch (event.type) {
    case 'FreeSpinStarted':
      return {
        ...current,
        spinsUsed: event.data.spinNumber,
        spinsLeft: current.spinAmount === null ? null : current.spinAmount - event.data.spinNumber,
        openRoundId: event.data.roundId,
      };
    case 'FreeSpinSettled':
      return {
        ...current,
        totalWinMinor: event.data.totalWinMinor,
        winCapLeftMinor: subtractMinor(current.callAmountMinor, event.data.totalWinMinor),
        openRoundId: current.openRoundId === event.data.roundId ? null : current.openRoundId,
      };
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
