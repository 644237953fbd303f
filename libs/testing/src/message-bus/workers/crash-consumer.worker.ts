/**
 * Child process of the crash contract test: consumes the test topic through `openMessageBus`,
 * records every handling durably, and on a "window" message (first time only) prints
 * `WINDOW <offset>` and hangs inside the handler, handled but not committed, until it is killed.
 */
import { openMessageBus } from '@reelstream/platform-backends';
import { z } from 'zod';
import { HandlingLog } from '../handling-log.js';

const env = z
  .object({
    BUS_URL: z.string().min(1),
    INSTANCE_ID: z.string().min(1),
    TOPIC: z.string().min(1),
    GROUP_ID: z.string().min(1),
    RESULTS_PATH: z.string().min(1),
    WINDOW_MESSAGES: z.string().default(''),
    /** `keyConcurrency` of the subscription. With WINDOW_MESSAGES=first the first message of this life is its window. */
    KEY_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  })
  .parse(process.env);

const windows = new Set(env.WINDOW_MESSAGES.split(',').filter(Boolean).map(Number));
const payload = z.object({ id: z.number().int(), key: z.string(), seq: z.number().int() });
const log = new HandlingLog(env.RESULTS_PATH);
const bus = await openMessageBus(env.BUS_URL, { instanceId: env.INSTANCE_ID });

let hungThisLife = false;
const consumer = await bus.subscribe({
  groupId: env.GROUP_ID,
  topics: [env.TOPIC],
  // One handler at a time: a hanging window message holds the whole process, so each life ends at one window.
  // With keyConcurrency the window holds only its key: the life goes on handling the others until killed.
  ...(env.KEY_CONCURRENCY === undefined
    ? { partitionsConsumedConcurrently: 1 }
    : { keyConcurrency: env.KEY_CONCURRENCY }),
  handler: async (message) => {
    const { id, key, seq } = payload.parse(message.value);
    const firstTime = log.timesHandled(id) === 0;
    log.record({ messageId: id, key, seq, partition: message.partition, offset: message.offset, pid: process.pid });
    const window = env.WINDOW_MESSAGES === 'first' ? !hungThisLife : windows.has(id) && firstTime;
    if (window) {
      hungThisLife = true;
      process.stdout.write(`WINDOW ${message.offset} message=${id}\n`);
      await new Promise<never>(() => undefined);
    }
  },
});
await consumer.ready;
process.stdout.write('READY\n');

process.once('SIGTERM', () => {
  void bus.close().then(
    () => {
      log.close();
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`close failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
});
