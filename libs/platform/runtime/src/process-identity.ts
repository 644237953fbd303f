/**
 * Who this process is, for the two things that must never collide between processes: the worker
 * id (0–1023) of its 53-bit id generator, and its instance id on the bus (consumer-group member, reply
 * routing). Both have defaults that are right on one machine and on Kubernetes StatefulSets.
 */
import { hostname } from 'node:os';
import { MAX_WORKER_ID } from '@reelstream/platform-ids';
import * as z from 'zod';

/**
 * The worker id each process draws ids with when neither `WORKER_ID` nor `WORKER_ID_BASE` is set:
 * distinct per service, so the processes of one machine (`npm start`, or one of each app) never
 * draw the same id. 6–31 are free for tools; Kubernetes workloads use ranges above them (ADR 0039).
 */
export const DEFAULT_WORKER_IDS = {
  platform: 0,
  gateway: 1,
  'bonus-ledger': 2,
  'game-server': 3,
  'wallet-dispatcher': 4,
  'operator-sandbox': 5,
} as const;

export type ServiceName = keyof typeof DEFAULT_WORKER_IDS;

export const SERVICE_NAMES = Object.keys(DEFAULT_WORKER_IDS) as ServiceName[];

const workerId = z.coerce
  .number({ error: `must be an integer 0–${MAX_WORKER_ID}` })
  .int({ error: `must be an integer 0–${MAX_WORKER_ID}` })
  .min(0, { error: `must be an integer 0–${MAX_WORKER_ID}` })
  .max(MAX_WORKER_ID, { error: `must be an integer 0–${MAX_WORKER_ID}` });

/** The variables every process reads about itself (besides the platform's DATA_DIR, BUS_URL, …). */
export const processIdentityEnv = z
  .object({
    /** The worker id of this process's id generator; wins over everything else. */
    WORKER_ID: workerId.optional(),
    /** First worker id of a replicated workload: its pod N draws with WORKER_ID_BASE + N. */
    WORKER_ID_BASE: workerId.optional(),
    /** The pod's ordinal (StatefulSet label `apps.kubernetes.io/pod-index`, through the downward API). */
    POD_INDEX: z.coerce
      .number({ error: 'must be a whole number ≥ 0' })
      .int({ error: 'must be a whole number ≥ 0' })
      .min(0, { error: 'must be a whole number ≥ 0' })
      .optional(),
    /**
     * The process's name on the bus. Default `<service>-<hostname>`. On the SQLite bus it is the member
     * id, so a restarted process takes its unexpired leases back at once. On Kafka it only names the
     * reply groups: kafkajs sends no `groupInstanceId` (no static membership), so a restarted process
     * joins as a new member and its old partitions move after the session timeout (10 s) or on leave.
     */
    INSTANCE_ID: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/, { error: 'must be 1–64 characters of A–Z a–z 0–9 _ . -' })
      .optional(),
  })
  .superRefine((env, ctx) => {
    if (env.WORKER_ID !== undefined || env.WORKER_ID_BASE === undefined) return;
    if (env.POD_INDEX === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['POD_INDEX'],
        message:
          'is required with WORKER_ID_BASE (the pod label apps.kubernetes.io/pod-index, through the downward API)',
      });
    } else if (env.WORKER_ID_BASE + env.POD_INDEX > MAX_WORKER_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['POD_INDEX'],
        message: `WORKER_ID_BASE ${env.WORKER_ID_BASE} + POD_INDEX ${env.POD_INDEX} is beyond the last worker id ${MAX_WORKER_ID}: lower the replica count or the base`,
      });
    }
  });
export type ProcessIdentityEnv = z.output<typeof processIdentityEnv>;

export interface ProcessIdentity {
  workerId: number;
  /** Where the worker id came from, for the start-up log. */
  workerIdSource: 'WORKER_ID' | 'WORKER_ID_BASE + POD_INDEX' | 'service default';
  instanceId: string;
}

export function processIdentityOf(
  service: ServiceName,
  env: ProcessIdentityEnv,
  host: string = hostname(),
): ProcessIdentity {
  const instanceId = env.INSTANCE_ID ?? defaultInstanceId(service, host);
  if (env.WORKER_ID !== undefined) return { workerId: env.WORKER_ID, workerIdSource: 'WORKER_ID', instanceId };
  if (env.WORKER_ID_BASE !== undefined && env.POD_INDEX !== undefined) {
    return { workerId: env.WORKER_ID_BASE + env.POD_INDEX, workerIdSource: 'WORKER_ID_BASE + POD_INDEX', instanceId };
  }
  return { workerId: DEFAULT_WORKER_IDS[service], workerIdSource: 'service default', instanceId };
}

/** `<service>-<hostname>`, cut to the 64 characters an instance id may have. */
export function defaultInstanceId(service: ServiceName, host: string): string {
  const safeHost = host.replace(/[^A-Za-z0-9_.-]/g, '-') || 'localhost';
  return `${service}-${safeHost}`.slice(0, 64);
}
