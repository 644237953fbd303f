/**
 * An operator's limit is the dispatcher group's, not each replica's: two dispatchers on one bus split
 * the wallet-request partitions, and each keeps to its share of the operator's calls in flight, so
 * the wallet never sees more than the configured limit however many replicas there are.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { openEventStore, openMessageBus } from '@reelstream/platform-backends';
import { OperatorDirectory } from '@reelstream/platform-config';
import { parseOperatorsConfig, playerKey, Topics, type CallbackRequest } from '@reelstream/contracts';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type EventStore, type MessageBus } from '@reelstream/platform-ports';
import { createLogger } from '@reelstream/platform-telemetry';
import { eventually } from '@reelstream/testing';
import { defaultBulkheadLimits, type OperatorWallet } from '@reelstream/wallet-application';
import type { OperatorCallResult } from '@reelstream/wallet-domain';
import { testOperator } from '../../../sandbox/service/test/test-sandbox.js';
import { startWalletDispatcher, type WalletDispatcher } from '../src/index.js';
import { winRequest } from './rig.js';

const LIMIT = 4;
const WINS = 24;

/** A wallet shared by both replicas: answers OK after a while, and counts the calls in flight at once. */
class CountingWallet implements OperatorWallet {
  inFlight = 0;
  mostInFlight = 0;
  readonly paid = new Set<number>();

  async call(_operator: unknown, body: CallbackRequest): Promise<OperatorCallResult> {
    this.inFlight += 1;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setTimeout(resolve, 60));
    this.inFlight -= 1;
    this.paid.add(Number(body.transactionId));
    return { kind: 'reply', statusCode: 'OK', balance: 100 };
  }
}

describe("an operator's calls in flight over two dispatcher replicas", () => {
  const dir = mkdtempSync(join(tmpdir(), 'limits-divided-'));
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`stay within the operator's limit (${LIMIT}), each replica taking its share of it`, async () => {
    const url = `sqlite:${join(dir, 'reelstream.db')}`;
    const { store } = await openEventStore(url);
    closers.push(() => store.close());
    const wallet = new CountingWallet();
    const operators = new OperatorDirectory(
      parseOperatorsConfig([testOperator('shared', 'limits-divided-secret-0123456789')]),
    );
    const replica = async (instanceId: string, workerId: number): Promise<WalletDispatcher> => {
      const bus: MessageBus = await openMessageBus(url, { instanceId });
      const dispatcher = await startWalletDispatcher(
        {
          store: store as EventStore,
          bus,
          clock: systemClock,
          ids: new TimeOrderedIdGenerator(workerId),
          logger: createLogger({ service: instanceId, level: 'error' }),
          operators,
          wallet,
        },
        {
          healthPort: 0,
          healthHost: '127.0.0.1',
          maxSockets: 64,
          // Calls beyond the limit wait for a slot rather than be refused.
          bulkhead: { ...defaultBulkheadLimits, maxInFlight: LIMIT, maxQueueWaitMs: 30_000 },
        },
      );
      closers.push(
        () => bus.close(),
        () => dispatcher.stop(),
      );
      return dispatcher;
    };
    const replicas = [await replica('limits-a', 12), await replica('limits-b', 13)];
    await Promise.all(replicas.map((each) => each.ready));
    // Both members of the group, each with part of the partitions.
    await eventually(() => {
      expect(replicas.every((each) => each.share > 0 && each.share < 1)).toBe(true);
      expect(replicas.reduce((sum, each) => sum + each.share, 0)).toBeCloseTo(1, 10);
    });

    const publisher = await openMessageBus(url, { instanceId: 'limits-publisher' });
    closers.push(() => publisher.close());
    const wins = await Promise.all(
      Array.from({ length: WINS }, (_, index) => winRequest(store, `shared_player_${index}`, 100, 'shared')),
    );
    await publisher.publish(
      Topics.walletRequests,
      wins.map((win) => ({ key: playerKey(win), value: win })),
    );

    await eventually(() => expect(wallet.paid.size).toBe(WINS), 30_000);
    // Two replicas with 64 each would have let all of them through at once; with a limit per replica, 2 × 4.
    expect(wallet.mostInFlight).toBeLessThanOrEqual(LIMIT);
    expect(wallet.mostInFlight).toBeGreaterThanOrEqual(LIMIT - 1);
  }, 60_000);
});
