import type { MessageBus, ParkedMessageObserver } from '@reelstream/platform-ports';
import {
  openKafkaMessageBus,
  parseKafkaUrl,
  type KafkaLog,
  type KafkaMessageBusOptions,
} from '@reelstream/platform-messaging-kafka';
import { SqliteMessageBus, type SqliteMessageBusOptions } from '@reelstream/platform-messaging-sqlite';
import { z } from 'zod';
import { ensureParentDirectory, parseSqliteUrl, unsupportedScheme, type SqliteUrl } from './sqlite-url.js';

export interface OpenMessageBusOptions {
  /** Names this process in consumer groups and reply routing. Default: a random id. */
  instanceId?: string;
  /**
   * Picks the one partition of each reply topic this process reads: its worker id
   * (docs/adr/0044-replies-routed-to-the-instance-that-asked.md). Default: a hash of the instance id.
   */
  replyNumber?: number;
  /** Told of every message parked on a `.dlq` topic (to log it at error and count it). Default: the adapter's own stderr line. */
  onParked?: ParkedMessageObserver;
  /** The process's logger, for the Kafka client's own lines. Default: the client's console lines. */
  log?: KafkaLog;
}

/** What `openMessageBus` hands the Kafka adapter besides the brokers. */
export function kafkaBusOptions(options: OpenMessageBusOptions): KafkaMessageBusOptions {
  return {
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.replyNumber === undefined ? {} : { replyNumber: options.replyNumber }),
    ...(options.onParked ? { onParked: options.onParked } : {}),
    ...(options.log ? { log: options.log } : {}),
  };
}

const integer = z.coerce.number().int();
/** Tuning knobs a `sqlite:` URL may carry as query parameters, e.g. `sqlite:./data/bus.db?sessionTimeoutMs=2000`. */
const sqliteQuerySchema = z
  .object({
    partitions: integer.optional(),
    synchronous: z.enum(['FULL', 'NORMAL']).optional(),
    pollIntervalMs: integer.optional(),
    sessionTimeoutMs: integer.optional(),
    busyTimeoutMs: integer.optional(),
    commitIntervalMs: integer.optional(),
  })
  .strict();

export type SqliteBusUrl = SqliteUrl<Omit<SqliteMessageBusOptions, 'instanceId' | 'replyNumber'>>;

export function parseSqliteBusUrl(url: string): SqliteBusUrl {
  return parseSqliteUrl(url, 'BUS_URL', sqliteQuerySchema) as SqliteBusUrl;
}

/** Opens the message bus named by `BUS_URL` (`sqlite:<path>` or `kafka://host:port,…`). */
export async function openMessageBus(url: string, options: OpenMessageBusOptions = {}): Promise<MessageBus> {
  const instance = {
    ...(options.instanceId ? { instanceId: options.instanceId } : {}),
    ...(options.replyNumber === undefined ? {} : { replyNumber: options.replyNumber }),
    ...(options.onParked ? { onParked: options.onParked } : {}),
  };
  if (url.startsWith('sqlite:')) {
    const { path, options: tuning } = parseSqliteBusUrl(url);
    ensureParentDirectory(path);
    return SqliteMessageBus.open(path, { ...tuning, ...instance });
  }
  if (url.startsWith('kafka://')) return openKafkaMessageBus(parseKafkaUrl(url), kafkaBusOptions(options));
  throw unsupportedScheme('BUS_URL', url, 'sqlite:<path> or kafka://host:port[,host:port…]');
}
