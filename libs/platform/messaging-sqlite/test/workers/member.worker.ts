/** A consumer-group member in its own process: prints READY <ms to ready> <partitions owned>, then HANDLED lines. */
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { z } from 'zod';
import { busOptions, workerEnv } from './bus-worker-env.js';

const { GROUP_ID } = z.object({ GROUP_ID: z.string().min(1) }).parse(process.env);
const bus = await SqliteMessageBus.open(workerEnv.BUS_PATH, busOptions);
const subscribedAt = performance.now();
const consumer = await bus.subscribe({
  groupId: GROUP_ID,
  topics: [workerEnv.TOPIC],
  handler: async (message) => {
    process.stdout.write(`HANDLED ${message.partition} ${message.offset}\n`);
  },
});
await consumer.ready;
process.stdout.write(`READY ${Math.round(performance.now() - subscribedAt)} ${consumer.assignedPartitions.length}\n`);

process.once('SIGTERM', () => {
  void bus.close().then(() => process.exit(0));
});
