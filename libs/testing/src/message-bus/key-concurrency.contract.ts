import { expect, it } from '@jest/globals';
import type { Message } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Enough keys that some certainly share the slow key's partition, whatever the partition count. */
const OTHER_KEYS = 200;
const where = (message: Message) => `${message.partition}/${message.offset}`;

interface Gate {
  promise: Promise<void>;
  open(): void;
}

function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** `keyConcurrency`: several messages of one partition in handlers at once, never two of one key. */
export function keyConcurrencyCases(harness: () => ContractHarness): void {
  it(
    'with keyConcurrency > 1 a slow key holds only its own later messages, not the other keys of its partition',
    async () => {
      const h = harness();
      if (h.knownFault('fetch-held-by-slow-key', expect.getState().currentTestName ?? '')) return;
      const [publisher, consumers] = await Promise.all([h.open(), h.open()]);
      const topic = h.name('slow-key');
      const slow = gate();
      const handled: Message[] = [];
      const consumer = await consumers.subscribe({
        groupId: h.name('group'),
        topics: [topic],
        keyConcurrency: 4,
        handler: async (message) => {
          if (message.key === 'slow' && (message.value as { seq: number }).seq === 0) await slow.promise;
          handled.push(message);
        },
      });
      await consumer.ready;
      await publisher.publish(topic, { key: 'slow', value: { seq: 0 } });
      await publisher.publish(
        topic,
        Array.from({ length: OTHER_KEYS }, (_, n) => ({ key: `player-${n}`, value: { seq: 0 } })),
      );
      await publisher.publish(topic, { key: 'slow', value: { seq: 1 } });

      await eventually(() => expect(handled).toHaveLength(OTHER_KEYS), WAIT_MS);
      expect(handled.every((message) => message.key !== 'slow')).toBe(true);
      slow.open();
      await eventually(
        () =>
          expect(
            handled
              .filter((message) => message.key === 'slow')
              .map((message) => (message.value as { seq: number }).seq),
          ).toEqual([0, 1]),
        WAIT_MS,
      );
      // Keys of the slow key's partition, behind it in offset order, went past it.
      const [first] = handled.filter((message) => message.key === 'slow');
      const overtook = handled.filter(
        (message) =>
          message.key !== 'slow' &&
          message.partition === first?.partition &&
          BigInt(message.offset) > BigInt(first.offset),
      );
      expect(overtook.length).toBeGreaterThan(0);
      await consumer.stop();
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'with keyConcurrency > 1 keeps per-key order, never runs two messages of one key at once, and runs several of one partition',
    async () => {
      const h = harness();
      const [publisher, consumers] = await Promise.all([h.open(), h.open()]);
      const topic = h.name('key-order');
      const keys = 24;
      const perKey = 15;
      const limit = 4;
      const busy = new Set<string>();
      const running = new Map<number, number>();
      let overlapOfOneKey = 0;
      let mostInOnePartition = 0;
      const order = new Map<string, number[]>();
      const consumer = await consumers.subscribe({
        groupId: h.name('group'),
        topics: [topic],
        keyConcurrency: limit,
        handler: async (message) => {
          if (busy.has(message.key)) overlapOfOneKey += 1;
          busy.add(message.key);
          const now = (running.get(message.partition) ?? 0) + 1;
          running.set(message.partition, now);
          mostInOnePartition = Math.max(mostInOnePartition, now);
          await sleep(1 + ((message.value as { seq: number }).seq % 4) * 3);
          order.set(message.key, [...(order.get(message.key) ?? []), (message.value as { seq: number }).seq]);
          running.set(message.partition, (running.get(message.partition) ?? 1) - 1);
          busy.delete(message.key);
        },
      });
      await consumer.ready;
      const messages = Array.from({ length: keys * perKey }, (_, n) => ({
        key: `player-${n % keys}`,
        value: { seq: Math.floor(n / keys) },
      }));
      await publisher.publish(topic, messages);

      await eventually(
        () => expect([...order.values()].reduce((sum, seqs) => sum + seqs.length, 0)).toBe(keys * perKey),
        WAIT_MS,
      );
      for (const seqs of order.values()) expect(seqs).toEqual(Array.from({ length: perKey }, (_, seq) => seq));
      expect(overlapOfOneKey).toBe(0);
      expect(mostInOnePartition).toBeGreaterThan(1);
      expect(mostInOnePartition).toBeLessThanOrEqual(limit);
      await consumer.stop();
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'with keyConcurrency > 1 stop() finishes in-flight handlers, and the next consumer starts at the lowest unfinished offset: nothing lost, nothing finished before it again',
    async () => {
      const h = harness();
      if (h.knownFault('fetch-held-by-slow-key', expect.getState().currentTestName ?? '')) return;
      const [publisher, first, second] = await Promise.all([h.open(), h.open(), h.open()]);
      const topic = h.name('lowest-unfinished');
      const groupId = h.name('group');
      const stuckKey = 'stuck';
      const handled: Message[] = [];
      let slowStarted = false;
      let slowFinished = false;
      let stuckSeen: Message | undefined;
      const consumer = await first.subscribe({
        groupId,
        topics: [topic],
        keyConcurrency: 4,
        // The stuck message fails and waits out a long retry delay: it never finishes in this consumer.
        retryDelayMs: () => 120_000,
        handler: async (message) => {
          if (message.key === stuckKey) {
            stuckSeen = message;
            throw new Error('wallet unreachable');
          }
          if ((message.value as { slow?: boolean }).slow) {
            slowStarted = true;
            await sleep(300);
            slowFinished = true;
          }
          handled.push(message);
        },
      });
      await consumer.ready;
      await publisher.publish(
        topic,
        Array.from({ length: OTHER_KEYS }, (_, n) => ({ key: `before-${n}`, value: { n } })),
      );
      await eventually(() => expect(handled).toHaveLength(OTHER_KEYS), WAIT_MS);
      await publisher.publish(topic, { key: stuckKey, value: { n: -1 } });
      await eventually(() => expect(stuckSeen).toBeDefined(), WAIT_MS);
      await publisher.publish(
        topic,
        Array.from({ length: OTHER_KEYS }, (_, n) => ({ key: `after-${n}`, value: { n } })),
      );
      await eventually(() => expect(handled).toHaveLength(2 * OTHER_KEYS), WAIT_MS);
      // Slow handlers in flight when stop() is called finish before it resolves.
      await publisher.publish(topic, [{ key: 'after-0', value: { n: 1_000, slow: true } }]);
      await eventually(() => expect(slowStarted).toBe(true), WAIT_MS);
      await consumer.stop();
      expect(slowFinished).toBe(true);
      expect(handled).toHaveLength(2 * OTHER_KEYS + 1);

      const stuck = stuckSeen as unknown as Message;
      const again: Message[] = [];
      const successor = await second.subscribe({
        groupId,
        topics: [topic],
        keyConcurrency: 4,
        handler: async (message) => {
          again.push(message);
        },
      });
      await successor.ready;
      await eventually(() => expect(again.some((message) => message.key === stuckKey)).toBe(true), WAIT_MS);
      const stuckAgain = again.find((message) => message.key === stuckKey);
      expect(stuckAgain && where(stuckAgain)).toBe(where(stuck));
      // Everything the first consumer finished behind the stuck message in its partition comes again ...
      const behind = handled.filter(
        (message) => message.partition === stuck.partition && BigInt(message.offset) > BigInt(stuck.offset),
      );
      expect(behind.length).toBeGreaterThan(0);
      await eventually(() => {
        const seen = new Set(again.map(where));
        for (const message of behind) expect(seen.has(where(message))).toBe(true);
      }, WAIT_MS);
      // ... and nothing the group had finished before it, in any partition.
      const before = handled.filter((message) => message.key.startsWith('before-'));
      const redone = new Set(again.map(where));
      expect(before.filter((message) => redone.has(where(message)))).toEqual([]);
      await successor.stop();
    },
    CASE_TIMEOUT_MS,
  );
}
