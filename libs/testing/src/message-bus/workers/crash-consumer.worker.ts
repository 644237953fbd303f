/**
 * Child process of the crash contract test: consumes the test topic through `openMessageBus`,
 * records every handling durably, and on a "window" message (first time only) prints
 * `WINDOW <offset>` and hangs inside the handler, handled but not committed, until it is killed.
 * With WINDOW_MESSAGES=behind-another-key the window is, once per life, the first message of a partition
 * that comes behind another key's message in that partition in this life: so the partition holds other keys
 * whose later messages may be finished behind it (a partition whose messages all share one key could do no
 * work behind its window, and the test of that work would test nothing).
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
    /** `keyConcurrency` of the subscription. */
    KEY_CONCURRENCY: z.coerce.number().int().min(1).optional(),
  })
  .parse(process.env);

const windows = new Set(env.WINDOW_MESSAGES.split(',').filter(Boolean).map(Number));
const payload = z.object({ id: z.number().int(), key: z.string(), seq: z.number().int() });
const log = new HandlingLog(env.RESULTS_PATH);
const bus = await openMessageBus(env.BUS_URL, { instanceId: env.INSTANCE_ID });

let hungThisLife = false;
/** The first key each partition delivered in this life. */
const firstKeyOf = new Map<number, string>();
/** Whether this message is the one window of this life in WINDOW_MESSAGES=behind-another-key. */
function behindAnotherKey(partition: number, key: string): boolean {
  if (hungThisLife) return false;
  const first = firstKeyOf.get(partition);
  if (first === undefined) firstKeyOf.set(partition, key);
  return first !== undefined && first !== key;
}
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
    const window =
      env.WINDOW_MESSAGES === 'behind-another-key'
        ? behindAnotherKey(message.partition, key)
        : windows.has(id) && firstTime;
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
