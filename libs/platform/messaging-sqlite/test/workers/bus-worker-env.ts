import { z } from 'zod';

/** What every test worker of this package reads from its environment. */
export const workerEnv = z
  .object({
    BUS_PATH: z.string().min(1),
    BUS_OPTIONS: z.string().default('{}'),
    TOPIC: z.string().min(1),
  })
  .parse(process.env);

export const busOptions = z
  .object({
    instanceId: z.string().optional(),
    partitions: z.number().optional(),
    sessionTimeoutMs: z.number().optional(),
    pollIntervalMs: z.number().optional(),
  })
  .parse(JSON.parse(workerEnv.BUS_OPTIONS));
