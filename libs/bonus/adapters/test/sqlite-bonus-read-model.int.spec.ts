/**
 * The bonus read model on a real SQLite file, read by two operators whose players and platform ids
 * have the same names (D18): every query answers only the asking operator's bonus calls, an
 * expired or completed one is never the active one, and an event applied twice changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import type { ProjectionChange } from '@reelstream/bonus-application';
import type { BonusCallRecord } from '@reelstream/contracts';
import { compareDecimalPositions } from '@reelstream/platform-eventstore-sqlite';
import { SqliteBonusReadModel } from '../src/index.js';

const PLAYER = 'shared_player';

function record(
  overrides: Partial<BonusCallRecord> & Pick<BonusCallRecord, 'issueId' | 'operatorId'>,
): BonusCallRecord {
  return {
    platformId: 'shared-promo',
    playerId: PLAYER,
    providerId: 1,
    gameIds: [101],
    bonusType: 1,
    currency: 'EUR',
    callAmountMinor: 5_000,
    spinAmount: 10,
    baseBetAmountMinor: 20,
    spinsUsed: 0,
    spinsLeft: 10,
    totalWinMinor: 0,
    winCapLeftMinor: 5_000,
    openRoundId: null,
    status: 'active',
    expireAt: '2026-06-30T23:59:59.000Z',
    createdAt: '2026-05-01T00:00:00.000Z',
    ...overrides,
  };
}

let position = 0;
/** The change that makes the bonus call `next`, as the projection would apply it. */
function change(next: BonusCallRecord, revision = 0): ProjectionChange {
  position += 1;
  return {
    position: String(position),
    streamId: `playerBonus-${next.operatorId}-${next.playerId}-${next.issueId}`,
    revision,
    issueId: next.issueId,
    project: () => next,
  };
}

let dir: string;
let model: SqliteBonusReadModel;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bonus-read-model-'));
  model = SqliteBonusReadModel.open(join(dir, 'read-model.db'), { comparePositions: compareDecimalPositions });
});
afterEach(() => {
  model.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The player's newest active bonus call as the operator's list shows it. */
async function activeOf(operatorId: string, playerId: string) {
  return (await model.list({ operatorId, playerId, status: 'active', limit: 1 }))[0];
}

describe('SqliteBonusReadModel: each operator reads its own bonus calls', () => {
  it("the player's active bonus listed is the asking operator's, even when the other operator's is newer", async () => {
    const ofA = record({ issueId: 11, operatorId: 'casino-a' });
    const ofB = record({ issueId: 12, operatorId: 'casino-b' });
    await model.apply([change(ofA), change(ofB)]);
    expect(await activeOf('casino-a', PLAYER)).toEqual(ofA);
    expect(await activeOf('casino-b', PLAYER)).toEqual(ofB);
    expect(await activeOf('casino-c', PLAYER)).toBeUndefined();
    expect(await activeOf('casino-a', 'other_player')).toBeUndefined();
  });

  it('an operator with no active bonus for the player gets none, whatever the other operator has', async () => {
    const doneOfA = record({ issueId: 21, operatorId: 'casino-a', status: 'completed', spinsLeft: 0, spinsUsed: 10 });
    const ofB = record({ issueId: 22, operatorId: 'casino-b' });
    await model.apply([change(doneOfA), change(ofB)]);
    expect(await activeOf('casino-a', PLAYER)).toBeUndefined();
  });

  it('of two active bonus calls of the player, the newest (largest issueId) is listed first', async () => {
    const older = record({ issueId: 31, operatorId: 'casino-a', platformId: 'p-31' });
    const newer = record({ issueId: 32, operatorId: 'casino-a', platformId: 'p-32' });
    await model.apply([change(newer), change(older)]);
    expect(await activeOf('casino-a', PLAYER)).toEqual(newer);
  });

  it('by issueId and by platformId: another operator reads nothing', async () => {
    const ofA = record({ issueId: 41, operatorId: 'casino-a' });
    const ofB = record({ issueId: 42, operatorId: 'casino-b' });
    await model.apply([change(ofA), change(ofB)]);
    expect(await model.byIssueId('casino-a', 41)).toEqual(ofA);
    expect(await model.byIssueId('casino-b', 41)).toBeUndefined();
    expect(await model.byPlatformId('casino-a', 'shared-promo')).toEqual(ofA);
    expect(await model.byPlatformId('casino-b', 'shared-promo')).toEqual(ofB);
    expect(await model.byPlatformId('casino-c', 'shared-promo')).toBeUndefined();
  });

  it("a list is the operator's, filtered and newest first, a page before a given issueId", async () => {
    const a1 = record({ issueId: 51, operatorId: 'casino-a', platformId: 'p-1' });
    const a2 = record({ issueId: 52, operatorId: 'casino-a', platformId: 'p-2', playerId: 'other_player' });
    const a3 = record({ issueId: 53, operatorId: 'casino-a', platformId: 'p-1', status: 'canceled' });
    const b1 = record({ issueId: 54, operatorId: 'casino-b', platformId: 'p-1' });
    await model.apply([a1, a2, a3, b1].map((next) => change(next)));
    const ids = async (filter: Parameters<SqliteBonusReadModel['list']>[0]) =>
      (await model.list(filter)).map(({ issueId }) => issueId);
    expect(await ids({ operatorId: 'casino-a', limit: 10 })).toEqual([53, 52, 51]);
    expect(await ids({ operatorId: 'casino-a', limit: 2 })).toEqual([53, 52]);
    expect(await ids({ operatorId: 'casino-a', limit: 10, playerId: PLAYER })).toEqual([53, 51]);
    expect(await ids({ operatorId: 'casino-a', limit: 10, platformId: 'p-1' })).toEqual([53, 51]);
    expect(await ids({ operatorId: 'casino-a', limit: 10, status: 'active' })).toEqual([52, 51]);
    expect(await ids({ operatorId: 'casino-a', limit: 10, beforeIssueId: 53 })).toEqual([52, 51]);
    expect(await ids({ operatorId: 'casino-b', limit: 10 })).toEqual([54]);
  });
});

describe('SqliteBonusReadModel: projection writes', () => {
  it('a change at or before the revision already applied to its stream is skipped; the checkpoint moves', async () => {
    const registered = record({ issueId: 61, operatorId: 'casino-a' });
    const played = { ...registered, spinsUsed: 1, spinsLeft: 9 };
    expect(await model.apply([change(registered, 0), change(played, 1)])).toEqual([registered, played]);
    expect(await model.apply([change(registered, 1)])).toEqual([]);
    expect(await model.byIssueId('casino-a', 61)).toEqual(played);
    expect(await model.checkpoint()).toBe(String(position));
  });

  it('a status change moves the call out of the active bonus and out of the expiry queue', async () => {
    const active = record({ issueId: 71, operatorId: 'casino-a', expireAt: '2026-05-02T00:00:00.000Z' });
    const later = record({ issueId: 72, operatorId: 'casino-b', expireAt: '2026-05-03T00:00:00.000Z' });
    await model.apply([change(active, 0), change(later, 0)]);
    expect(await model.nextExpiry()).toBe('2026-05-02T00:00:00.000Z');
    expect((await model.dueForExpiry('2026-05-02T00:00:00.000Z', 10)).map(({ issueId }) => issueId)).toEqual([71]);
    expect((await model.dueForExpiry('2026-05-04T00:00:00.000Z', 1)).map(({ issueId }) => issueId)).toEqual([71]);
    await model.apply([change({ ...active, status: 'expired' }, 1)]);
    expect(await activeOf('casino-a', PLAYER)).toBeUndefined();
    expect(await model.nextExpiry()).toBe('2026-05-03T00:00:00.000Z');
    expect(await model.dueForExpiry('2026-05-02T00:00:00.000Z', 10)).toEqual([]);
    expect(model.allRecords().map(({ issueId, status }) => [issueId, status])).toEqual([
      [71, 'expired'],
      [72, 'active'],
    ]);
  });

  it('close closes the database: nothing is read after it', async () => {
    const other = SqliteBonusReadModel.open(join(dir, 'closed.db'), { comparePositions: compareDecimalPositions });
    other.close();
    expect(other.db.open).toBe(false);
    await expect(other.byIssueId('casino-a', 1)).rejects.toThrow(/not open/);
  });

  it('reset drops every row and the checkpoint', async () => {
    await model.apply([change(record({ issueId: 81, operatorId: 'casino-a' }))]);
    model.reset();
    expect(model.allRecords()).toEqual([]);
    expect(await model.checkpoint()).toBeUndefined();
  });
});
