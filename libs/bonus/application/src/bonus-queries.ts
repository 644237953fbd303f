/**
 * The gateway's queries over `bonus.commands` (D13): status by issueId or platformId, lists by
 * player / platformId / status. Answered from the read model after it
 * has caught up with the log, so a query sees every command answered before it was sent.
 */
import {
  refusal,
  type BonusCallRecord,
  type BonusResult,
  type GetBonusCallQuery,
  type ListBonusCallsQuery,
  type Refusal,
} from '@reelstream/contracts';
import { decodeListCursor, encodeListCursor } from './list-cursor.js';
import type { BonusReadModel } from './ports.js';

export interface ProjectionProgress {
  caughtUp(): Promise<void>;
}

export class BonusQueries {
  constructor(
    private readonly readModel: BonusReadModel,
    private readonly progress: ProjectionProgress,
  ) {}

  async get(query: GetBonusCallQuery['data']): Promise<BonusResult<'GetBonusCall'> | Refusal> {
    const { operatorId, issueId, platformId } = query;
    await this.progress.caughtUp();
    const record =
      issueId !== undefined
        ? await this.readModel.byIssueId(operatorId, issueId)
        : platformId !== undefined
          ? await this.readModel.byPlatformId(operatorId, platformId)
          : undefined;
    if (!record) return refusal('BONUS_NOT_FOUND', `no bonus call ${issueId ?? platformId} for operator ${operatorId}`);
    return record;
  }

  async list(query: ListBonusCallsQuery['data']): Promise<BonusResult<'ListBonusCalls'> | Refusal> {
    const { operatorId, playerId, platformId, status, limit, cursor } = query;
    const beforeIssueId = cursor === undefined ? undefined : decodeListCursor(cursor);
    if (cursor !== undefined && beforeIssueId === undefined) {
      return refusal('VALIDATION_FAILED', 'cursor must be the nextCursor of a previous page', {
        details: [{ path: 'cursor', message: 'not a cursor of this list' }],
      });
    }
    await this.progress.caughtUp();
    const rows = await this.readModel.list({
      operatorId,
      limit: limit + 1,
      ...(playerId === undefined ? {} : { playerId }),
      ...(platformId === undefined ? {} : { platformId }),
      ...(status === undefined ? {} : { status }),
      ...(beforeIssueId === undefined ? {} : { beforeIssueId }),
    });
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return { items, nextCursor: rows.length > limit && last ? encodeListCursor(last.issueId) : null };
  }

  /** The record of a bonus call, waiting for the read model only when it does not know it yet. */
  async find(operatorId: string, issueId: number): Promise<BonusCallRecord | undefined> {
    const known = await this.readModel.byIssueId(operatorId, issueId);
    if (known) return known;
    await this.progress.caughtUp();
    return this.readModel.byIssueId(operatorId, issueId);
  }
}
