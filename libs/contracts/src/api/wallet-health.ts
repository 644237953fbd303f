/**
 * `GET /v1/wallet/health`: how the calling operator's wallet answered reelstream's callbacks over
 * the last hour and the last day, per command — how many were sent, how many it answered OK, how
 * long it took — computed from the wallet transactions' delivery history in the event log
 * (docs/adr/0022-operator-console-and-wallet-health.md), never from another operator's.
 */
import * as z from 'zod';
import { CALLBACK_COMMANDS } from '../callbacks/requests.js';
import { isoInstant, operatorId } from '../shared/primitives.js';
import { okEnvelope } from './envelope.js';

/** The windows the health is given for, and the width of the buckets each is charted in. */
export const WALLET_HEALTH_WINDOWS = [
  { window: 'hour', seconds: 3_600, bucketSeconds: 300 },
  { window: 'day', seconds: 86_400, bucketSeconds: 3_600 },
] as const;

const count = z.number().int().min(0);
const milliseconds = z.number().int().min(0);

const latency = z
  .strictObject({ average: milliseconds, p50: milliseconds, p95: milliseconds, max: milliseconds })
  .nullable()
  .meta({
    description:
      'From each callback sent to its answer (or to the time-out), in milliseconds; null when none was sent in the window.',
  });

const commandHealth = z.strictObject({
  command: z.enum(CALLBACK_COMMANDS),
  callbacks: count.meta({ description: 'Callbacks of this command whose outcome was recorded in the window.' }),
  succeeded: count.meta({ description: 'Of them, answered `OK`.' }),
  failed: count,
  successRate: z
    .number()
    .min(0)
    .max(1)
    .nullable()
    .meta({ description: 'succeeded / callbacks, from 0 to 1; null when no callback was sent.' }),
  latencyMs: latency,
  failures: z.array(z.strictObject({ reason: z.string(), count })).meta({
    description:
      'The failed callbacks by reason: your status code (`ERR_NOT_ENOUGH_MONEY`…), `TIMEOUT`, or `NO_VALID_ANSWER` (an HTTP error, a dropped connection, a malformed reply); most frequent first.',
  }),
});

const bucket = z.strictObject({
  from: isoInstant,
  callbacks: count,
  succeeded: count,
  latencyMsP95: milliseconds.nullable(),
});

const walletHealthWindow = z.strictObject({
  window: z.enum(['hour', 'day']),
  from: isoInstant,
  to: isoInstant,
  bucketSeconds: z.number().int().min(1),
  commands: z
    .array(commandHealth)
    .meta({ description: 'bet, win, betwin and cancel, each listed even without callbacks.' }),
  buckets: z
    .array(bucket)
    .meta({ description: 'Every command together, bucket by bucket from `from` (12 of 5 minutes, 24 of an hour).' }),
});

const hourAgo = '2026-05-01T08:30:00.000Z';
const windowExample = {
  window: 'hour',
  from: hourAgo,
  to: '2026-05-01T09:30:00.000Z',
  bucketSeconds: 300,
  commands: [
    {
      command: 'bet',
      callbacks: 120,
      succeeded: 118,
      failed: 2,
      successRate: 0.9833,
      latencyMs: { average: 42, p50: 35, p95: 90, max: 3500 },
      failures: [{ reason: 'ERR_NOT_ENOUGH_MONEY', count: 2 }],
    },
    {
      command: 'win',
      callbacks: 80,
      succeeded: 80,
      failed: 0,
      successRate: 1,
      latencyMs: { average: 30, p50: 28, p95: 60, max: 75 },
      failures: [],
    },
    { command: 'betwin', callbacks: 0, succeeded: 0, failed: 0, successRate: null, latencyMs: null, failures: [] },
    { command: 'cancel', callbacks: 0, succeeded: 0, failed: 0, successRate: null, latencyMs: null, failures: [] },
  ],
  buckets: [{ from: hourAgo, callbacks: 17, succeeded: 17, latencyMsP95: 70 }],
} as const;

const walletHealth = z
  .strictObject({
    operatorId,
    at: isoInstant.meta({ description: 'When it was computed: the end of every window.' }),
    windows: z.array(walletHealthWindow),
  })
  .meta({
    id: 'WalletHealth',
    description: 'How your wallet answered the callbacks of the last hour and of the last day.',
    examples: [{ operatorId: 'demo', at: '2026-05-01T09:30:00.000Z', windows: [windowExample] }],
  });
export type WalletHealth = z.infer<typeof walletHealth>;
export type WalletHealthWindow = z.infer<typeof walletHealthWindow>;
export type CommandHealth = z.infer<typeof commandHealth>;

export const walletHealthResponse = okEnvelope(walletHealth).meta({
  id: 'WalletHealthResponse',
  description:
    'GET /v1/wallet/health: the calling operator’s callbacks over the last hour and day, computed from the event log.',
  examples: [
    {
      success: true,
      message: 'OK',
      data: { operatorId: 'demo', at: '2026-05-01T09:30:00.000Z', windows: [windowExample] },
    },
  ],
});
