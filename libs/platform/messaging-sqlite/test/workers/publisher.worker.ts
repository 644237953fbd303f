/**
 * Publishes COUNT messages over KEYS keys from its own process, optionally opening the file at
 * START_AT (epoch ms) so that several publishers race to create a fresh file.
 */
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { z } from 'zod';
import { busOptions, workerEnv } from './bus-worker-env.js';

const env = z
  .object({
    COUNT: z.coerce.number().int().positive(),
    KEYS: z.coerce.number().int().positive(),
    PUBLISHER: z.string().default('child'),
    START_AT: z.coerce.number().default(0),
  })
  .parse(process.env);

await new Promise((resolve) => setTimeout(resolve, Math.max(0, env.START_AT - Date.now())));
const bus = await SqliteMessageBus.open(workerEnv.BUS_PATH, busOptions);
// Concurrent single publishes, one key after another: per-key order is publish order.
const perKey = Math.ceil(env.COUNT / env.KEYS);
await Promise.all(
  Array.from({ length: env.KEYS }, async (_, k) => {
    for (let seq = 0; seq < perKey && k + seq * env.KEYS < env.COUNT; seq++) {
      await bus.publish(workerEnv.TOPIC, {
        key: `key-${k}`,
        value: { publisher: env.PUBLISHER, seq, sentAt: Date.now() },
      });
    }
  }),
);
await bus.close();
process.stdout.write('PUBLISHED\n');
