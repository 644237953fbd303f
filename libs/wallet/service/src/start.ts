/**
 * startWalletDispatcher: the consumer of `wallet.requests` and `wallet.cancels` calling operator
 * wallets over HTTP (undici), plus its health server. Takes its ports; stops everything it started.
 */
import { walletTxStream } from '@reelstream/contracts';
import { startHealthServer, StopSequence, type HealthServer } from '@reelstream/platform-http';
import { runLeased, type LeasedRunner } from '@reelstream/platform-eventsourcing';
import type {
  Consumer,
  EventStore,
  LeasesAndFencedCheckpoints,
  MessageBus,
  ServicePorts,
} from '@reelstream/platform-ports';
import {
  createMetrics,
  MetricNames,
  PARKED_MESSAGES_METRIC,
  traceEventStore,
  traceMessageBus,
  type Logger,
} from '@reelstream/platform-telemetry';
import {
  defaultBulkheadLimits,
  limitsForShare,
  OperatorBulkhead,
  OperatorBulkheadWallet,
  runWinRedriveSchedule,
  walletSubscriptions,
  WinRedriveScheduler,
  type BulkheadLimits,
  type OperatorLookup,
  type OperatorWallet,
} from '@reelstream/wallet-application';
import type { WalletDispatcherConfig } from './config.js';
import { HttpOperatorWallet, HttpWebhookSender } from '@reelstream/wallet-adapters';
import {
  cancelsNotDeliveredCounter,
  circuitChangesCounter,
  countDeadLetters,
  countRefusals,
  measuredWallet,
} from './wallet-metrics.js';

export interface WalletDispatcherDeps extends ServicePorts {
  logger: Logger;
  operators: OperatorLookup;
  /** Default: HttpOperatorWallet, as in production. */
  wallet?: OperatorWallet;
  /** Backoff between bonus webhook attempts. Default `webhookRetryDelayMs` (1 s, 2 s, 4 s … 60 s). */
  webhookRetryDelayMs?: (attempt: number) => number;
  /**
   * With `instanceId`: the scheduled re-drive of dead-lettered wins runs in the replica holding the
   * lease `wallet-dispatcher.redrive` (docs/adr/0016-scheduled-win-redrive.md). Without: no
   * scheduled re-drive in this process (a test rig, a tool).
   */
  leases?: LeasesAndFencedCheckpoints;
  /** This replica's `INSTANCE_ID`: the owner of its lease. */
  instanceId?: string;
}

/** The lease of the scheduled win re-drive: one replica at a time looks for due wins. */
const WIN_REDRIVE_LEASE = 'wallet-dispatcher.redrive';

export interface WalletDispatcher {
  readonly healthPort: number;
  /** Both consumers have joined their groups. */
  readonly ready: Promise<void>;
  /** The share of the wallet-request partitions this replica was given: the part of each operator's limits it uses. */
  readonly share: number;
  /** Lets in-flight deliveries finish (and commit), then stops the consumers, the health server and the HTTP agents. */
  stop(): Promise<void>;
}

// Long because: the service's wiring in start order (metrics, operator clients, subscriptions), one call per step, with
// the stop sequence registered alongside.
export async function startWalletDispatcher(
  deps: WalletDispatcherDeps,
  config: WalletDispatcherConfig,
): Promise<WalletDispatcher> {
  const metrics = createMetrics();
  const store = traceEventStore(deps.store);
  const bus = traceMessageBus(countDeadLetters(deps.bus, metrics, deps.operators));
  const ownWallet = deps.wallet ? undefined : new HttpOperatorWallet({ maxSockets: config.maxSockets });
  const webhookSender = new HttpWebhookSender();
  const circuitChanges = circuitChangesCounter(metrics, deps.operators);
  const defaults: BulkheadLimits = config.bulkhead ?? defaultBulkheadLimits;
  const limitsOf = (operatorId: string) => ({ ...defaults, ...config.operatorBulkheads?.[operatorId] });
  // An operator's limits are the whole group's: each replica takes its share, by the partitions its
  // consumer was given (the requests group for the callbacks, the webhooks group for the webhooks).
  const shareOf: { requests?: Consumer; webhooks?: Consumer } = {};
  const wallet = new OperatorBulkheadWallet(measuredWallet(deps.wallet ?? (ownWallet as HttpOperatorWallet), metrics), {
    limitsOf: (operatorId) => limitsForShare(limitsOf(operatorId), shareOf.requests?.share ?? 0),
    now: () => performance.now(),
    onCircuitChange: (change) => {
      circuitChanges(change);
      const log = change.to === 'open' ? deps.logger.warn.bind(deps.logger) : deps.logger.info.bind(deps.logger);
      log('operator circuit changed', { ...change });
    },
  });
  // The handlers log their own parks at error; the count joins the bus adapter's.
  const parked = metrics.counter<'topic' | 'group'>(PARKED_MESSAGES_METRIC, {
    description: 'messages parked on a dead-letter topic',
    unit: '{message}',
  });
  const onParked = (message: { topic: string; groupId: string }) =>
    parked.add(1, { topic: message.topic, group: message.groupId });
  const onCancelNotDelivered = cancelsNotDeliveredCounter(metrics, deps.operators);
  const subscriptions = walletSubscriptions(
    {
      store,
      bus,
      clock: deps.clock,
      ids: deps.ids,
      wallet,
      operators: deps.operators,
      log: deps.logger,
      onParked,
      onCancelNotDelivered,
      onRefused: countRefusals(metrics, deps.operators),
    },
    {
      ...(config.keyConcurrency === undefined ? {} : { keyConcurrency: config.keyConcurrency }),
      webhooks: webhookSender,
      // The same limits as the operator's callbacks, in compartments of their own: a failing webhook endpoint never opens
      // the wallet's circuit.
      webhookBulkhead: new OperatorBulkhead({
        limitsOf: (operatorId) => limitsForShare(limitsOf(operatorId), shareOf.webhooks?.share ?? 0),
        now: () => performance.now(),
        onCircuitChange: (change) => deps.logger.info('operator webhook circuit changed', { ...change }),
      }),
      ...(deps.webhookRetryDelayMs === undefined ? {} : { webhookRetryDelayMs: deps.webhookRetryDelayMs }),
    },
  );
  const webhooks = subscriptions.webhooks;
  // Zero from the start: an alert on `increase(...) > 0` then fires on the first parked message too.
  for (const subscription of [subscriptions.requests, subscriptions.cancels, subscriptions.delayed, webhooks].filter(
    (each) => each !== undefined,
  ))
    for (const topic of subscription.topics) parked.add(0, { topic, group: subscription.groupId });

  const stops = new StopSequence();
  stops.add(() => deps.logger.info('wallet dispatcher stopped'));
  const redrive = startRedriveSchedule(deps, config, store, bus, metrics);
  stops.add(() => redrive?.stop());
  stops.add(() => ownWallet?.close());
  stops.add(() => webhookSender.close());
  let health: HealthServer | undefined;
  stops.add(() => health?.close());
  const consumers: Consumer[] = [];
  // In-flight deliveries finish (and commit) while /readyz still answers, before the HTTP agents go.
  stops.add(async () => void (await Promise.all(consumers.map((consumer) => consumer.stop()))));
  let joined = false;
  try {
    shareOf.requests = await bus.subscribe(subscriptions.requests);
    consumers.push(shareOf.requests);
    consumers.push(await bus.subscribe(subscriptions.cancels));
    consumers.push(await bus.subscribe(subscriptions.delayed));
    if (webhooks) {
      shareOf.webhooks = await bus.subscribe(webhooks);
      consumers.push(shareOf.webhooks);
    }
    health = await startHealthServer({ port: config.healthPort, host: config.healthHost }, async () => {
      await store.streamRevision(walletTxStream(1));
      // After joining, a consumer being recreated after a crash (or losing its leases) takes no requests.
      const healthy = consumers.every((consumer) => consumer.healthy);
      return {
        ready: joined && healthy,
        detail: { consumers: !joined ? 'joining' : healthy ? 'joined' : 'rejoining' },
      };
    });
  } catch (error) {
    await stops.stop();
    throw error;
  }
  const ready = Promise.all(consumers.map((consumer) => consumer.ready)).then(() => {
    joined = true;
  });
  deps.logger.info('wallet dispatcher started', { healthPort: health.port });

  return {
    healthPort: health.port,
    ready,
    get share() {
      return shareOf.requests?.share ?? 0;
    },
    stop: () => stops.stop(),
  };
}

/** The scheduled re-drive under its lease, and the gauge of wins whose schedule is over (what the holder last counted). */
function startRedriveSchedule(
  deps: WalletDispatcherDeps,
  config: WalletDispatcherConfig,
  store: EventStore,
  bus: MessageBus,
  metrics: ReturnType<typeof createMetrics>,
): LeasedRunner | undefined {
  const { leases, instanceId } = deps;
  if (!leases || instanceId === undefined) return undefined;
  let over: ReadonlyMap<string, number> = new Map();
  const stopGauge = metrics.observableGauge<'operator'>(
    MetricNames.walletRedriveOver,
    { description: 'dead-lettered wins whose scheduled re-drives are over: a person must re-drive or settle them' },
    () => [...over].map(([operator, value]) => ({ value, attributes: { operator } })),
  );
  const runner = runLeased({
    leases,
    name: WIN_REDRIVE_LEASE,
    owner: instanceId,
    ttlMs: config.leaseTtlMs ?? 10_000,
    start: (guard) => {
      const scheduler = new WinRedriveScheduler(
        { store, bus, clock: deps.clock, operators: deps.operators, log: deps.logger },
        () => guard.held(),
      );
      const running = runWinRedriveSchedule(scheduler, {
        tickMs: config.redriveTickMs ?? 1_000,
        log: deps.logger,
        onTick: (tick) => {
          over = tick.scheduleOver;
        },
      });
      return {
        stop: async () => {
          await running.stop();
          over = new Map();
        },
      };
    },
    onChange: (change, lease) =>
      deps.logger.info(`lease ${change}`, { worker: 'win-redrive', token: lease.token, instanceId }),
    onError: (error) => deps.logger.error('win re-drive lease failed', { error }),
  });
  return {
    get holding() {
      return runner.holding;
    },
    stop: async () => {
      stopGauge();
      await runner.stop();
    },
    abandon: () => runner.abandon(),
  };
}
