import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SqliteCheckpointStore, SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { Position } from '@reelstream/platform-ports';
import { heldCheckpoints } from './held-checkpoints.js';

let dir: string;
let store: SqliteEventStore;
let positions: Position[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'held-checkpoints-'));
  store = SqliteEventStore.open(join(dir, 'store.db'), { synchronous: 'NORMAL' });
  positions = [];
  for (let i = 1; i <= 3; i++)
    positions.push(
      (await store.append(`round-${i}`, [{ type: 'RoundStarted', data: {} }], { expectedRevision: 'no_stream' }))
        .position,
    );
});

afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a checkpoint held before the earliest open round', () => {
  const [first, second, third] = [0, 1, 2];

  it('stores the position handled when no round is open', async () => {
    const inner = new SqliteCheckpointStore(store.database);
    const held = heldCheckpoints(inner, store, { holdAt: () => undefined });
    await held.store('free', positions[third] as Position);
    expect(await inner.load('free')).toBe(positions[third]);
  });

  it('stores the position before the open round instead of a later one', async () => {
    const inner = new SqliteCheckpointStore(store.database);
    const held = heldCheckpoints(inner, store, { holdAt: () => positions[first] });
    await held.store('held', positions[third] as Position);
    expect(await inner.load('held')).toBe(positions[first]);
    // An earlier position than the hold is stored as it is.
    const later = heldCheckpoints(inner, store, { holdAt: () => positions[third] });
    await later.store('early', positions[second] as Position);
    expect(await inner.load('early')).toBe(positions[second]);
  });

  it('stores nothing while the open round is the first event ever seen', async () => {
    const inner = new SqliteCheckpointStore(store.database);
    const held = heldCheckpoints(inner, store, { holdAt: () => 'start' });
    await held.store('from-start', positions[third] as Position);
    expect(await inner.load('from-start')).toBeUndefined();
  });
});
