/**
 * The status read model of one bonus call (decisions.md D12; the API view is `toBonusCallStatus`):
 * how each event changes the record. Pure, so the projection and a rebuild from the log agree.
 * What is left (spins, win cap) is bonus-domain's arithmetic, the one the decider spends from.
 */
import { spinsLeft, termsOf, winCapLeftMinor, type BonusCall } from '@reelstream/bonus-domain';
import { ReelstreamError, type BonusCallRecord, type PlayerBonusEvent } from '@reelstream/contracts';

/** Not retriable: the read model misses the registration, and will on every replay of the same events. */
export class ProjectionOrderError extends ReelstreamError {
  override readonly name = 'ProjectionOrderError';
  constructor(
    readonly issueId: number,
    type: string,
  ) {
    super('INTERNAL', `${type} for bonus call ${issueId}, which the read model has not seen registered`, {
      retriable: false,
    });
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
    case 'RegularBonusSpinSettled': {
      const settled = {
        ...current,
        spinsUsed: Math.max(current.spinsUsed, event.data.spinNumber),
        totalWinMinor: event.data.totalWinMinor,
      };
      return { ...settled, winCapLeftMinor: winCapLeftMinor(settled) };
    }
    case 'BonusCallCompleted':
      return { ...current, status: 'completed', completedAt: event.data.completedAt };
    case 'BonusCallExpired':
      // A spin in flight stays open until it settles.
      return { ...current, status: 'expired', expiredAt: event.data.expiredAt };
    case 'BonusCallCanceled':
      return { ...current, status: 'canceled', canceledAt: event.data.canceledAt };
    default: {
      const unexpected: never = event;
      throw new Error(`no projection rule for ${(unexpected as { type: string }).type}`);
    }
  }
}

/**
 * The same record from the player's account (`bonusDecider`'s fold of the stream) instead of from
 * the events one by one: what the game-server reads the active bonus call with (ADR 0006).
 * `test/free-spins.int.spec.ts` folds histories both ways and expects equal records.
 */
export function bonusCallRecordOf(bonus: BonusCall): BonusCallRecord {
  const record: BonusCallRecord = {
    ...termsOf(bonus),
    spinsUsed: bonus.spinsUsed,
    totalWinMinor: bonus.totalWinMinor,
    spinsLeft: spinsLeft(bonus),
    winCapLeftMinor: winCapLeftMinor(bonus),
    openRoundId: bonus.openRoundId,
    status: bonus.status,
    createdAt: bonus.registeredAt,
  };
  if (bonus.completedAt !== null) record.completedAt = bonus.completedAt;
  if (bonus.expiredAt !== null) record.expiredAt = bonus.expiredAt;
  if (bonus.canceledAt !== null) record.canceledAt = bonus.canceledAt;
  return record;
}
