import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { CheckpointStore, Position, RecordedEvent } from '@reelstream/platform-ports';
import { caughtUpWith, startCatchUp } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'caught-up-'));
const store = SqliteEventStore.open(join(dir, 'events.db'));
const saved = new Map<string, Position>();
const checkpoints: CheckpointStore = {
  load: async (name) => saved.get(name),
  store: async (name, position) => void saved.set(name, position),
};
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const rounds = { streamPrefixes: ['round-'] };
const lagError = (position: Position) => new Error(`behind ${position}`);

describe('caughtUpWith (a read model answers only once it shows every earlier write)', () => {
  it('resolves once the runner has handled the newest event its filter passes, and at once when none does', async () => {
    const handled: RecordedEvent[] = [];
    const runner = startCatchUp({
      store,
      checkpoints,
      name: 'caught-up.handled',
      filter: rounds,
      handle: async (event) => void handled.push(event),
    });
    await caughtUpWith(store, runner, rounds, 5_000, lagError);
    expect(handled).toEqual([]);

    const round = await store.append('round-1', [{ type: 'RoundStarted', data: {} }], {
      expectedRevision: 'no_stream',
    });
    await store.append('session-1', [{ type: 'SessionOpened', data: {} }], { expectedRevision: 'no_stream' });
    await caughtUpWith(store, runner, rounds, 5_000, lagError);
    expect(handled.map((event) => event.position)).toEqual([round.position]);
    await runner.stop();
  });

  it('rejects with the lag error, naming the newest position, when the runner has not got there in time', async () => {
    const round = await store.append('round-2', [{ type: 'RoundStarted', data: {} }], {
      expectedRevision: 'no_stream',
    });
    let release = () => undefined as void;
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const runner = startCatchUp({ store, checkpoints, name: 'caught-up.stuck', filter: rounds, handle: () => stuck });
    await expect(caughtUpWith(store, runner, rounds, 50, lagError)).rejects.toThrow(`behind ${round.position}`);
    release();
    await runner.stop();
  });
});
