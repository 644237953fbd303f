import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { expect, it } from '@jest/globals';
import { anEvent, at, expectCheckpointAtOrPast, type EventStoreHarness } from './harness.js';
import { ChildWorker } from './child-worker.js';

const APPEND_WORKER = fileURLToPath(new URL('./workers/append-worker.ts', import.meta.url));
const CATCH_UP_WORKER = fileURLToPath(new URL('./workers/catch-up-worker.ts', import.meta.url));
const RACE_ROUNDS = 20;
const KILLS = 20;
const SOURCE_EVENTS = 60;
const ANSWER_MS = 30_000;

interface AppendAnswer {
  id: number;
  ok: boolean;
  conflict?: boolean;
  actual?: number | 'no_stream';
  error?: string;
}

/** Real processes on the same back end: write races and SIGKILL in the middle of handling. */
export function processCases(harness: () => EventStoreHarness, children: Set<ChildWorker>): void {
  const start = (file: string, env: Record<string, string>): ChildWorker => {
    const worker = new ChildWorker(file, { EVENT_STORE_URL: harness().underTest.url, ...env });
    children.add(worker);
    void worker.exited.then(() => children.delete(worker));
    return worker;
  };

  it(`lets exactly one of two processes win a race on one stream at the same expected revision (${RACE_ROUNDS} rounds)`, async () => {
    const { store } = await harness().open();
    const stream = harness().stream('race-1');
    await store.append(stream, [anEvent()], { expectedRevision: 'no_stream' });
    const workers = [start(APPEND_WORKER, {}), start(APPEND_WORKER, {})];
    await Promise.all(workers.map((w) => w.nextMessage((m) => m['ready'] === true, ANSWER_MS)));

    const wins = [0, 0];
    for (let round = 0; round < RACE_ROUNDS; round++) {
      // Both fire at the same wall-clock moment, so the race is real rather than first-come.
      const startAt = Date.now() + 15;
      for (const worker of round % 2 === 0 ? workers : [...workers].reverse()) {
        worker.send({ id: round, streamId: stream, expectedRevision: round, eventId: randomUUID(), startAt });
      }
      const answers = await Promise.all(
        workers.map((w) => w.nextMessage<AppendAnswer>((m) => m['id'] === round, ANSWER_MS)),
      );
      const winners = answers.filter((a) => a.ok);
      const losers = answers.filter((a) => !a.ok);
      expect(winners).toHaveLength(1);
      expect(losers).toEqual([expect.objectContaining({ conflict: true, actual: round + 1 })]);
      answers.forEach((a, i) => (wins[i] = (wins[i] ?? 0) + (a.ok ? 1 : 0)));
    }
    await Promise.all(workers.map((w) => w.end()));
    expect(await store.streamRevision(stream)).toBe(RACE_ROUNDS);
    expect(new Set((await store.readStream(stream)).map((e) => e.eventId)).size).toBe(RACE_ROUNDS + 1);
    console.log(
      `[${harness().underTest.adapter}] process race: wins per process ${wins.join(' / ')} over ${RACE_ROUNDS} rounds`,
    );
  }, 120_000);

  it(`loses no event when the subscriber process is SIGKILLed ${KILLS} times between side effect and checkpoint`, async () => {
    const { store, checkpoints } = await harness().open();
    const sourcePrefix = harness().stream('src-');
    const handledStream = harness().stream('handled');
    const checkpointName = `contract-crash-${randomUUID()}`;
    const source: string[] = [];
    for (let i = 0; i < SOURCE_EVENTS; i += 4) {
      const batch = [anEvent(), anEvent(), anEvent(), anEvent()];
      await store.append(`${sourcePrefix}${i % 3}`, batch, { expectedRevision: 'any' });
      source.push(...batch.map((e) => e.eventId));
    }
    const lastPosition = at(
      await store.readAll({ filter: { streamPrefixes: [sourcePrefix] }, direction: 'backwards', maxCount: 1 }),
      0,
    ).position;
    const env = {
      SOURCE_PREFIX: sourcePrefix,
      HANDLED_STREAM: handledStream,
      CHECKPOINT_NAME: checkpointName,
      UNTIL_POSITION: lastPosition,
    };

    const killedInWindow: string[] = [];
    for (let kill = 0; kill < KILLS; kill++) {
      const worker = start(CATCH_UP_WORKER, { ...env, BLOCK_AT: String(2 + (kill % 3)) });
      const window = await worker.nextMessage<{ window: string; position: string }>(
        (m) => typeof m['window'] === 'string',
        ANSWER_MS,
      );
      await worker.kill();
      killedInWindow.push(window.window);
      // Killed inside the window: the side effect is stored, the checkpoint is still before the event.
      const checkpoint = await checkpoints.load(checkpointName);
      if (checkpoint !== undefined) expect(store.comparePositions(checkpoint, window.position)).toBeLessThan(0);
    }
    const last = start(CATCH_UP_WORKER, { ...env, BLOCK_AT: '0' });
    await last.nextMessage((m) => m['done'] === true, ANSWER_MS);
    expect((await last.exited).code).toBe(0);

    const handlings = new Map<string, number>();
    for (const event of await store.readStream(handledStream)) {
      const id = (event.data as { sourceEventId: string }).sourceEventId;
      handlings.set(id, (handlings.get(id) ?? 0) + 1);
    }
    const lost = source.filter((id) => !handlings.has(id));
    expect(lost).toEqual([]);
    for (const id of killedInWindow) expect(handlings.get(id)).toBeGreaterThanOrEqual(2);
    const total = [...handlings.values()].reduce((a, b) => a + b, 0);
    const reHandled = total - source.length;
    console.log(
      `[${harness().underTest.adapter}] crash test: ${KILLS} SIGKILLs, ${source.length} source events, ${total} handlings, ${reHandled} re-handled, 0 lost`,
    );
    expect(reHandled).toBeGreaterThan(0);
    await expectCheckpointAtOrPast(store, checkpoints, checkpointName, lastPosition);
  }, 180_000);
}
