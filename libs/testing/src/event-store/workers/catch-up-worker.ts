/**
 * Child process for the EventStore crash test: a checkpointed catch-up subscription whose handler
 * writes a durable side effect (an event on HANDLED_STREAM, one per handling, so re-handlings
 * show). On the BLOCK_AT-th event of this run (0 = never) it writes the side effect, prints
 * `{ window: eventId }` and blocks: the side effect is durable, the checkpoint not yet, and the
 * parent SIGKILLs it there. Without blocking it runs until UNTIL_POSITION is handled, prints
 * `{ done: true }` and exits. Exits when stdin closes.
 */
import { randomUUID } from 'node:crypto';
import { openTestEventStore as openEventStore } from '../esdb-positions.js';
import { startCatchUp } from '@reelstream/platform-eventsourcing';

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

const url = required('EVENT_STORE_URL');
const sourcePrefix = required('SOURCE_PREFIX');
const handledStream = required('HANDLED_STREAM');
const checkpointName = required('CHECKPOINT_NAME');
const untilPosition = required('UNTIL_POSITION');
const blockAt = Number(process.env['BLOCK_AT'] ?? '0');

const say = (message: unknown): void => void process.stdout.write(`${JSON.stringify(message)}\n`);
// stdin open keeps the process alive while blocked; its end means the parent is gone.
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();

const { store, checkpoints } = await openEventStore(url);
let handledThisRun = 0;
const runner = startCatchUp({
  store,
  checkpoints,
  name: checkpointName,
  filter: { streamPrefixes: [sourcePrefix] },
  checkpointIntervalMs: 2,
  retryDelayMs: 20,
  onError: (error) => process.stderr.write(`catch-up error: ${String(error)}\n`),
  handle: async (event) => {
    await store.append(
      handledStream,
      [
        {
          eventId: randomUUID(),
          type: 'SourceHandled',
          data: { sourceEventId: event.eventId, sourcePosition: event.position, pid: process.pid },
        },
      ],
      { expectedRevision: 'any' },
    );
    handledThisRun += 1;
    if (handledThisRun === blockAt) {
      // Give the checkpoint of the events before this one time to land, so every run moves on.
      await new Promise((resolve) => setTimeout(resolve, 30));
      say({ window: event.eventId, position: event.position });
      await new Promise<never>(() => undefined);
    }
  },
});
await runner.waitFor(untilPosition);
await runner.stop();
await store.close();
say({ done: true });
process.exit(0);
