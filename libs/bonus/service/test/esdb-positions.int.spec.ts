/**
 * The ledger on a store whose positions are shaped like EventStoreDB's (`commit-prepare`, not
 * decimals, string order wrong where the commit gains a digit): the read model must order them
 * through the store, or its second batch fails (the SQLite store's comparison) or its checkpoint
 * stops moving (a string comparison).
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { PLAYER_BONUS_FILTER } from '@reelstream/bonus-application';
import { decodeEsdbShapedPosition } from '@reelstream/testing';
import { SqliteBonusReadModel, rebuildBonusReadModel } from '@reelstream/bonus-adapters';
import { accepted, OPERATOR, registration } from './bonus-requests.js';
import { LedgerHarness } from './ledger-harness.js';

const harness = new LedgerHarness();

beforeAll(async () => {
  await harness.open({ esdbShapedPositions: true });
  await harness.startLedger();
});
afterAll(() => harness.close());

const lastBonusPosition = async () =>
  (await harness.backends.store.readAll({ direction: 'backwards', maxCount: 1, filter: PLAYER_BONUS_FILTER }))[0]
    ?.position;

describe('bonus-ledger on EventStoreDB-shaped positions', () => {
  it('projects batch after batch across the commit position gaining a digit ("99-98" → "100-99"), survives a restart and equals a rebuild', async () => {
    // Other streams fill the log up to just before the commit position reaches 100, so the registrations straddle it.
    for (let n = 0; n < 80; n++)
      await harness.backends.store.append(`filler-${n}`, [{ type: 'Filler', data: { n } }], {
        expectedRevision: 'no_stream',
      });
    const issued: number[] = [];
    for (let n = 0; n < 40 && Number(decodeEsdbShapedPosition((await lastBonusPosition()) ?? '9-8')) < 100; n++) {
      // One at a time: each registration is its own projection batch, so the checkpoint is compared every time.
      const { issueId } = accepted(
        await harness.bonus.register(registration({ platformId: `esdb-${n}`, playerId: `esdb_player_${n}` })),
      );
      issued.push(issueId);
      expect(await harness.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({
        issueId,
        status: 'active',
      });
    }
    const last = await lastBonusPosition();
    expect(Number(decodeEsdbShapedPosition(last ?? '9-8'))).toBeGreaterThanOrEqual(100);
    await harness.ledger?.caughtUp();
    // The checkpoint moved with every batch, to the last bonus event: no move was taken for a step back.
    expect(await harness.ledger?.readModel.checkpoint()).toBe(last);

    await harness.stopLedger();
    const ledger = await harness.startLedger();
    const { issueId } = accepted(
      await harness.bonus.register(registration({ platformId: 'esdb-after-restart', playerId: 'esdb_player_after' })),
    );
    expect(await harness.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({
      issueId,
      status: 'active',
    });
    await ledger.caughtUp();
    expect(await ledger.readModel.checkpoint()).toBe(await lastBonusPosition());

    const rebuilt = SqliteBonusReadModel.open(`${harness.dir}/rebuilt-read.db`, {
      comparePositions: (a, b) => harness.backends.store.comparePositions(a, b),
    });
    try {
      await rebuildBonusReadModel(harness.backends.store, rebuilt);
      expect(rebuilt.allRecords()).toEqual(ledger.readModel.allRecords());
      expect(rebuilt.allRecords().map((record) => record.issueId)).toEqual([...issued, issueId]);
    } finally {
      rebuilt.close();
    }
  });
});
