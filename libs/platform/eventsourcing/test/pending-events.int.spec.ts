import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { pendingEvents } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'pending-events-'));
const store = SqliteEventStore.open(join(dir, 'events.db'));
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pendingEvents (the lag of a checkpointed worker)', () => {
  it('counts the matching events after the checkpoint, all of them without one, and stops at the cap', async () => {
    const round = { streamPrefixes: ['round-'] };
    const first = await store.append('round-1', [{ type: 'RoundStarted', data: {} }], {
      expectedRevision: 'no_stream',
    });
    await store.append('session-1', [{ type: 'SessionOpened', data: {} }], { expectedRevision: 'no_stream' });
    await store.append(
      'round-1',
      [
        { type: 'RoundSettled', data: {} },
        { type: 'RoundNoted', data: {} },
      ],
      { expectedRevision: first.nextExpectedRevision },
    );
    await store.append('round-2', [{ type: 'RoundStarted', data: {} }], { expectedRevision: 'no_stream' });

    expect(await pendingEvents(store, undefined, round)).toBe(4);
    expect(await pendingEvents(store, undefined)).toBe(5);
    // The worker has made the first round event durable: three round events are still to do.
    expect(await pendingEvents(store, first.position, round)).toBe(3);
    expect(await pendingEvents(store, first.position, round, 2)).toBe(2);
    const all = await store.readAll();
    const last = all[all.length - 1];
    if (!last) throw new Error('no events');
    expect(await pendingEvents(store, last.position, round)).toBe(0);
  });
});
