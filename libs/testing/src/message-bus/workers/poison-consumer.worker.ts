/**
 * Child process of the poison-message cluster case: consumes the test topic through `openMessageBus`
 * with `maxAttempts: 2`, prints `HANDLED <n>` for every message it handles, and exits at once
 * (like an OOM kill: no exception, no cleanup) inside the handler of a message marked `poison`.
 */
import { openMessageBus } from '@reelstream/platform-backends';
import { z } from 'zod';

const env = z
  .object({
    BUS_URL: z.string().min(1),
    INSTANCE_ID: z.string().min(1),
    TOPIC: z.string().min(1),
    GROUP_ID: z.string().min(1),
  })
  .parse(process.env);
const payload = z.object({ n: z.number().int(), poison: z.boolean().optional() });
const bus = await openMessageBus(env.BUS_URL, { instanceId: env.INSTANCE_ID });

await bus.subscribe({
  groupId: env.GROUP_ID,
  topics: [env.TOPIC],
  maxAttempts: 2,
  handler: async (message) => {
    const { n, poison } = payload.parse(message.value);
    if (poison) process.exit(137);
    process.stdout.write(`HANDLED ${n}\n`);
  },
});
