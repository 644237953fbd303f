/**
 * startWalletDispatcher: the consumer of `wallet.requests` and `wallet.cancels` calling operator
 * wallets through got, plus its health server. Takes its ports; stops everything it started.
 */
import { walletTxStream } from '@reelstream/contracts';
import type { Clock, Consumer, EventStore, IdGenerator, MessageBus } from '@reelstream/ports';
import { createMetrics, traceEventStore, traceMessageBus, type Logger } from '@reelstream/telemetry';
import { walletSubscriptions, type OperatorLookup, type OperatorWallet } from '@reelstream/wallet-application';
import type { WalletDispatcherConfig } from './config.js';
import { GotOperatorWallet } from './got-operator-wallet.js';
import { startHealthServer } from './health-server.js';

export interface WalletDispatcherDeps {
  store: EventStore;
  bus: MessageBus;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  operators: OperatorLookup;
  /** Default: got, as in production. */
  wallet?: OperatorWallet;
}

export interface WalletDispatcher {
  readonly healthPort: number;
  /** Both consumers have joined their groups. */
  readonly ready: Promise<void>;
  /** Lets in-flight deliveries finish (and commit), then stops the consumers, the health server and the HTTP agents. */
  stop(): Promise<void>;
}

export async function startWalletDispatcher(deps: WalletDispatcherDeps, config: WalletDispatcherConfig): Promise<WalletDispatcher> {
  const store = traceEventStore(deps.store);
  const bus = traceMessageBus(deps.bus);
  const metrics = createMetrics('wallet-dispatcher');
  const calls = metrics.counter<'command' | 'outcome'>('wallet.callback.attempts', { description: 'Callback attempts by command and outcome' });
  const durations = metrics.histogram<'command'>('wallet.callback.duration', { unit: 'ms', boundaries: [5, 10, 25, 50, 100, 250, 500, 1_000, 2_000, 3_000, 4_000] });
  const ownWallet = deps.wallet
    ? undefined
    : new GotOperatorWallet({
        maxSockets: config.maxSockets,
        observe: (command, outcome, ms) => {
          calls.add(1, { command, outcome });
          durations.record(ms, { command });
        },
      });
  const wallet = deps.wallet ?? (ownWallet as GotOperatorWallet);
  const subscriptions = walletSubscriptions({ store, bus, clock: deps.clock, ids: deps.ids, wallet, operators: deps.operators, log: deps.logger });

  const consumers: Consumer[] = [];
  try {
    consumers.push(await bus.subscribe(subscriptions.requests));
    consumers.push(await bus.subscribe(subscriptions.cancels));
  } catch (error) {
    await Promise.all(consumers.map((consumer) => consumer.stop()));
    ownWallet?.close();
    throw error;
  }
  let joined = false;
  const ready = Promise.all(consumers.map((consumer) => consumer.ready)).then(() => {
    joined = true;
  });

  const health = await startHealthServer(config.healthPort, config.healthHost, async () => {
    await store.streamRevision(walletTxStream(1));
    // After joining, a consumer being recreated after a crash (or losing its leases) takes no requests.
    const healthy = consumers.every((consumer) => consumer.healthy);
    return { ok: joined && healthy, detail: { consumers: !joined ? 'joining' : healthy ? 'joined' : 'rejoining' } };
  });
  deps.logger.info('wallet dispatcher started', { healthPort: health.port });

  let stopping: Promise<void> | undefined;
  return {
    healthPort: health.port,
    ready,
    stop() {
      stopping ??= (async () => {
        await Promise.all(consumers.map((consumer) => consumer.stop()));
        await health.stop();
        ownWallet?.close();
        deps.logger.info('wallet dispatcher stopped');
      })();
      return stopping;
    },
  };
}
