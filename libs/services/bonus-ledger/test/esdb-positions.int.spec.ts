/**
 * The ledger on a store whose positions are shaped like EventStoreDB's (`commit-prepare`, string
 * order wrong): the read model must order them through the store, or its second batch fails.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SqliteBonusReadModel, rebuildBonusReadModel } from '../src/index.js';
import { OPERATOR, registration } from './bonus-requests.js';
import { LedgerHarness } from './ledger-harness.js';

const harness = new LedgerHarness();

beforeAll(async () => {
  await harness.open({ esdbShapedPositions: true });
  await harness.startLedger();
});
afterAll(() => harness.close());

describe('bonus-ledger on EventStoreDB-shaped positions', () => {
  it('projects batch after batch (the read model compares positions through the store), survives a restart and equals a rebuild', async () => {
    const issued: number[] = [];
    for (let n = 0; n < 4; n++) {
      // One at a time: each registration is its own projection batch, so the checkpoint is compared every time.
      const { issueId } = await harness.client.ok('RegisterBonusCall', registration({ platformId: `esdb-${n}`, playerId: `esdb_player_${n}` }));
      issued.push(issueId);
      expect(await harness.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({ issueId, status: 'active' });
    }
    const checkpoint = await harness.ledger?.readModel.checkpoint();
    expect(checkpoint).toMatch(/^[1-9][0-9]*-[0-9]+$/);

    await harness.stopLedger();
    const ledger = await harness.startLedger();
    const { issueId } = await harness.client.ok('RegisterBonusCall', registration({ platformId: 'esdb-after-restart', playerId: 'esdb_player_after' }));
    expect(await harness.client.ok('GetBonusCall', { operatorId: OPERATOR, issueId })).toMatchObject({ issueId, status: 'active' });
    await ledger.caughtUp();

    const rebuilt = SqliteBonusReadModel.open(`${harness.dir}/rebuilt-read.db`, { comparePositions: (a, b) => harness.backends.store.comparePositions(a, b) });
    try {
      await rebuildBonusReadModel(harness.backends.store, rebuilt);
      expect(rebuilt.allRecords()).toEqual(ledger.readModel.allRecords());
      expect(rebuilt.allRecords().map((record) => record.issueId)).toEqual([...issued, issueId]);
    } finally {
      rebuilt.close();
    }
  });
});
