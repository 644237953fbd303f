/**
 * `BENCH_HOPS=1 npm run bench:dispatch`: where each callback's time goes, hop by hop. Wraps the
 * ports the dispatcher is given (event store, bus, wallet), stamps when each hop of a transaction
 * ends, and prints the mean and median of each stamp since the request was published
 * (docs/performance.md, "A wallet callback, hop by hop"). Nothing is wrapped without BENCH_HOPS.
 */
import { Topics, type CallbackRequest, type OperatorConfig } from '@reelstream/contracts';
import type { EventStore, MessageBus, OutgoingMessage } from '@reelstream/platform-ports';
import type { OperatorWallet } from '@reelstream/wallet-application';

const HOPS = [
  'handler starts',
  'walletTx read',
  'attempt durable',
  'POST answered',
  'outcome durable',
  'reply durable',
  'requester has the reply',
] as const;
type Hop = (typeof HOPS)[number];

const transactionOf = (value: unknown): number | undefined => {
  const id = (value as { transactionId?: unknown } | undefined)?.transactionId;
  return typeof id === 'number' ? id : undefined;
};
const WALLET_TX = /^walletTx-(\d+)$/;

export class CallbackHops {
  private readonly published = new Map<number, number>();
  private readonly stamps = new Map<number, Partial<Record<Hop, number>>>();
  private readonly appends = new Map<number, number>();

  private stamp(transactionId: number | undefined, hop: Hop): void {
    if (transactionId === undefined || !this.published.has(transactionId)) return;
    const stamps = this.stamps.get(transactionId) ?? {};
    stamps[hop] ??= performance.now();
    this.stamps.set(transactionId, stamps);
  }

  /** The requester's bus: a request's publish starts its clock. */
  requester(bus: MessageBus): MessageBus {
    return {
      publish: (topic, messages) => bus.publish(topic, messages),
      subscribe: (options) => bus.subscribe(options),
      close: () => bus.close(),
      request: async (topic, message: OutgoingMessage, options) => {
        const transactionId = transactionOf(message.value);
        if (transactionId !== undefined) this.published.set(transactionId, performance.now());
        const reply = await bus.request(topic, message, options);
        this.stamp(transactionId, 'requester has the reply');
        return reply;
      },
    };
  }

  /** The dispatcher's bus: when its handler sees a request, when a reply is durable. */
  dispatcherBus(bus: MessageBus): MessageBus {
    return {
      publish: async (topic, messages) => {
        await bus.publish(topic, messages);
        if (topic !== Topics.walletReplies) return;
        const list: readonly OutgoingMessage[] = Array.isArray(messages) ? messages : [messages as OutgoingMessage];
        for (const message of list) this.stamp(transactionOf(message.value), 'reply durable');
      },
      subscribe: (options) =>
        bus.subscribe({
          ...options,
          handler: (message, context) => {
            this.stamp(transactionOf(message.value), 'handler starts');
            return options.handler(message, context);
          },
        }),
      request: (topic, message, options) => bus.request(topic, message, options),
      close: () => bus.close(),
    };
  }

  /** The dispatcher's store: the walletTx read, the attempt's and the outcome's appends. */
  store(store: EventStore): EventStore {
    return {
      append: async (streamId, events, options) => {
        const result = await store.append(streamId, events, options);
        const transactionId = Number(WALLET_TX.exec(streamId)?.[1] ?? NaN);
        if (Number.isSafeInteger(transactionId)) {
          const count = (this.appends.get(transactionId) ?? 0) + 1;
          this.appends.set(transactionId, count);
          this.stamp(transactionId, count === 1 ? 'attempt durable' : 'outcome durable');
        }
        return result;
      },
      readStream: async (streamId, options) => {
        const events = await store.readStream(streamId, options);
        const transactionId = Number(WALLET_TX.exec(streamId)?.[1] ?? NaN);
        if (Number.isSafeInteger(transactionId)) this.stamp(transactionId, 'walletTx read');
        return events;
      },
      streamRevision: (streamId) => store.streamRevision(streamId),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      comparePositions: (a, b) => store.comparePositions(a, b),
      close: () => store.close(),
    };
  }

  /** The dispatcher's wallet: when the operator answered. */
  wallet(wallet: OperatorWallet): OperatorWallet {
    return {
      call: async (operator: OperatorConfig, body: CallbackRequest, timeoutMs: number) => {
        const result = await wallet.call(operator, body, timeoutMs);
        this.stamp(body.transactionId, 'POST answered');
        return result;
      },
    };
  }

  /** The hops of the transactions answered since the last report, and forgets them. */
  report(label: string): string[] {
    const done = [...this.stamps].filter(([, stamps]) => stamps['requester has the reply'] !== undefined);
    const lines = [`  hops of ${label} (${done.length} callbacks): ms since the request was published, mean / median`];
    for (const hop of HOPS) {
      const times = done
        .map(([transactionId, stamps]) => (stamps[hop] ?? NaN) - (this.published.get(transactionId) ?? NaN))
        .filter((ms) => !Number.isNaN(ms))
        .sort((a, b) => a - b);
      if (times.length === 0) continue;
      const mean = times.reduce((a, b) => a + b, 0) / times.length;
      const median = times[Math.floor(times.length / 2)] ?? NaN;
      lines.push(`    ${hop.padEnd(24)} ${mean.toFixed(1).padStart(7)} / ${median.toFixed(1).padStart(7)}`);
    }
    this.published.clear();
    this.stamps.clear();
    this.appends.clear();
    return lines;
  }
}
