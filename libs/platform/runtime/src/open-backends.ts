/**
 * Opens the event store and the message bus named by `EVENT_STORE_URL` / `BUS_URL`, traced, after
 * checking both URLs so that a bad one is a configuration error naming its variable. The adapters
 * are imported only here, after telemetry is up, so that its instrumentation patches them.
 */
import { ConfigError, type Backends } from '@reelstream/platform-config';
import {
  isConsumerLagSource,
  type CheckpointStore,
  type EventStore,
  type LeasesAndFencedCheckpoints,
  type MessageBus,
  type ParkedMessageObserver,
} from '@reelstream/platform-ports';
import {
  createMetrics,
  measureEventStore,
  MetricNames,
  PARKED_MESSAGES_METRIC,
  traceEventStore,
  traceMessageBus,
  type Logger,
  type Metrics,
} from '@reelstream/platform-telemetry';
import { ConsumerRegistry, type ConsumerHealth } from './consumer-health.js';

export interface OpenedBackends {
  /** The event store with trace context on every append and read. */
  store: EventStore;
  checkpoints: CheckpointStore;
  /** Leases of singleton workers and their fenced checkpoints, in the event store. */
  leases: LeasesAndFencedCheckpoints;
  /** The bus with trace context on every message. */
  bus: MessageBus;
  /** The same back ends without tracing (appends still measured), for a service that adds its own (the wallet dispatcher). */
  untraced: { store: EventStore; bus: MessageBus };
  /** Every consumer subscribed through `bus` or `untraced.bus`: readiness is false while one is unhealthy. */
  consumers: ConsumerHealth;
  /** `kafka` or `sqlite`: `messaging.system` of the bus spans. */
  busSystem: 'kafka' | 'sqlite';
  close(): Promise<void>;
}

async function checkBackendUrls(backends: Backends): Promise<void> {
  const { parseSqliteBusUrl, parseSqliteEventStoreUrl, parsePostgresEventStoreUrl } =
    await import('@reelstream/platform-backends');
  const { parseKafkaUrl } = await import('@reelstream/platform-messaging-kafka');
  const problems: string[] = [];
  const check = (variable: string, parse: () => unknown) => {
    try {
      parse();
    } catch (error) {
      const message = (error as Error).message;
      problems.push(message.includes(variable) ? message : `${variable}: ${message}`);
    }
  };
  if (backends.eventStoreUrl.startsWith('sqlite:'))
    check('EVENT_STORE_URL', () => parseSqliteEventStoreUrl(backends.eventStoreUrl));
  if (/^postgres(ql)?:\/\//.test(backends.eventStoreUrl))
    check('EVENT_STORE_URL', () => parsePostgresEventStoreUrl(backends.eventStoreUrl));
  if (backends.busUrl.startsWith('sqlite:')) check('BUS_URL', () => parseSqliteBusUrl(backends.busUrl));
  if (backends.busUrl.startsWith('kafka:')) check('BUS_URL', () => parseKafkaUrl(backends.busUrl));
  if (problems.length > 0) throw new ConfigError(problems);
}

/**
 * What a service does with every message its bus parks on a `.dlq` topic: one error line with the
 * reason, one count per topic and group. Nothing reads those topics, so this is the only trace a
 * parked message leaves until someone looks.
 */
export function reportParkedMessages(logger: Logger, metrics: Metrics): ParkedMessageObserver {
  const parked = metrics.counter<'topic' | 'group'>(PARKED_MESSAGES_METRIC, {
    description: 'messages parked on a dead-letter topic',
    unit: '{message}',
  });
  return (message) => {
    logger.error('bus message parked', { ...message });
    parked.add(1, { topic: message.topic, group: message.groupId });
  };
}

/**
 * The parked-message count of each group and topic this process consumes, at 0 from the start:
 * an alert on `increase(...) > 0` then fires on the first parked message too (a series that
 * appears with 1 has no increase).
 */
function zeroParkedCounts({ groupId, topics }: { groupId: string; topics: readonly string[] }): void {
  const parked = createMetrics().counter<'topic' | 'group'>(PARKED_MESSAGES_METRIC, {
    description: 'messages parked on a dead-letter topic',
    unit: '{message}',
  });
  for (const topic of topics) parked.add(0, { topic, group: groupId });
}

/** How long one scrape waits for the bus to tell a group's lag (a Kafka admin round trip) before it reports none. */
const LAG_READ_TIMEOUT_MS = 2_000;

/**
 * `reelstream_bus_consumer_lag{group,topic,partition}` for every group this process consumes, as
 * the bus adapter computes it (SQLite from its log, Kafka from the admin API). Returns what stops it.
 */
function observeConsumerLag(bus: MessageBus, consumers: ConsumerRegistry): () => void {
  if (!isConsumerLagSource(bus)) return () => undefined;
  return createMetrics().observableGauge<'group' | 'topic' | 'partition'>(
    MetricNames.busConsumerLag,
    { description: 'messages a consumer group has not consumed (committed) yet', unit: '{message}' },
    async () => {
      const read = Promise.all(consumers.groups().map(({ groupId, topics }) => bus.consumerLag(groupId, topics)));
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('consumer lag not read in time')), LAG_READ_TIMEOUT_MS);
      });
      try {
        const lags = (await Promise.race([read, timeout])).flat();
        return lags.map(({ groupId, topic, partition, lag }) => ({
          value: lag,
          attributes: { group: groupId, topic, partition: String(partition) },
        }));
      } finally {
        clearTimeout(timer);
      }
    },
  );
}

export async function openBackends(
  backends: Backends,
  /** Names the process on the bus; its worker id picks the partition of each reply topic it reads. */
  identity: { instanceId: string; workerId: number },
  onParked?: ParkedMessageObserver,
  /** The process's logger: the Kafka client logs through it. */
  log?: Logger,
): Promise<OpenedBackends> {
  await checkBackendUrls(backends);
  const { openEventStore, openMessageBus } = await import('@reelstream/platform-backends');
  const opened = await openEventStore(backends.eventStoreUrl);
  const { checkpoints, leases } = opened;
  const store = measureEventStore(opened.store);
  let bus: MessageBus;
  try {
    bus = await openMessageBus(backends.busUrl, {
      instanceId: identity.instanceId,
      replyNumber: identity.workerId,
      ...(onParked ? { onParked } : {}),
      ...(log ? { log: log.child({ component: 'kafka' }) } : {}),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const busSystem = backends.busUrl.startsWith('kafka:') ? 'kafka' : 'sqlite';
  const consumers = new ConsumerRegistry();
  const tracked = consumers.track(bus, zeroParkedCounts);
  const stopLagGauge = observeConsumerLag(bus, consumers);
  return {
    store: traceEventStore(store),
    checkpoints,
    leases,
    bus: traceMessageBus(tracked, { system: busSystem }),
    untraced: { store, bus: tracked },
    consumers,
    busSystem,
    async close() {
      stopLagGauge();
      try {
        await bus.close();
      } finally {
        await store.close();
      }
    },
  };
}
