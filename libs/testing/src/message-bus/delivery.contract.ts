import { expect, it } from '@jest/globals';
import type { Message } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, valuesOf, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

const keyOrder = (messages: readonly Message[]): Map<string, number[]> => {
  const byKey = new Map<string, number[]>();
  for (const { key, value } of messages) byKey.set(key, [...(byKey.get(key) ?? []), (value as { seq: number }).seq]);
  return byKey;
};

/** Publishing and consuming: what arrives, in which order, for whom. */
export function deliveryCases(harness: () => ContractHarness): void {
  it(
    'delivers a single published message with its key, value and headers intact',
    async () => {
      const h = harness();
      const bus = await h.open();
      const topic = h.name('single');
      const recorder = await h.record(bus, { groupId: h.name('group'), topics: [topic] });
      const value = {
        amount: 1250,
        currency: 'EUR',
        nested: { list: [1, 'two', null], flag: true },
        text: 'žluťoučký kůň 🎰',
      };
      await bus.publish(topic, {
        key: 'player-1',
        value,
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-kind': 'bet' },
      });

      const [message] = await eventually(() => {
        expect(recorder.messages).toHaveLength(1);
        return recorder.messages;
      }, WAIT_MS);
      expect(message).toMatchObject({
        topic,
        key: 'player-1',
        value,
        headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-kind': 'bet' },
      });
      expect(message?.offset).toMatch(/^\d+$/);
      expect(Number.isInteger(message?.partition)).toBe(true);
      expect(new Date(message?.timestamp ?? '').toISOString()).toBe(message?.timestamp);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'delivers every message of a batch publish',
    async () => {
      const h = harness();
      const bus = await h.open();
      const topic = h.name('batch');
      const recorder = await h.record(bus, { groupId: h.name('group'), topics: [topic] });
      const batch = Array.from({ length: 25 }, (_, n) => ({
        key: `k${n % 5}`,
        value: { n },
        headers: { n: String(n) },
      }));
      await bus.publish(topic, batch);

      await eventually(() => expect(recorder.messages).toHaveLength(25), WAIT_MS);
      const received = recorder.messages.map(({ key, value, headers }) => ({ key, value, headers: { n: headers.n } }));
      expect(received.sort((a, b) => (a.value as { n: number }).n - (b.value as { n: number }).n)).toEqual(batch);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'keeps per-key order across 20 keys × 50 messages while keys interleave',
    async () => {
      const h = harness();
      const bus = await h.open();
      const topic = h.name('order');
      const recorder = await h.record(bus, { groupId: h.name('group'), topics: [topic] });
      // Round-robin over keys, in batches and single publishes racing each other.
      const all = Array.from({ length: 1_000 }, (_, n) => ({
        key: `player-${n % 20}`,
        value: { seq: Math.floor(n / 20) },
      }));
      for (let start = 0; start < all.length; start += 100) {
        const chunk = all.slice(start, start + 100);
        if ((start / 100) % 2 === 0) await bus.publish(topic, chunk);
        else for (const message of chunk) await bus.publish(topic, message);
      }

      // Delivery is at least once: a consumer whose lease lapsed (a stalled event loop on a loaded machine) starts
      // again from its group's committed offset, so a key may see a stretch of its messages twice. What may never
      // happen is a message skipped or one overtaking an earlier one: each key's sequence only steps to the next
      // message or goes back to replay, and ends with every one of its 50 messages handled.
      const order = await eventually(() => {
        const byKey = keyOrder(recorder.messages);
        expect(byKey.size).toBe(20);
        for (const seqs of byKey.values()) expect(new Set(seqs).size).toBe(50);
        return byKey;
      }, WAIT_MS);
      for (const seqs of order.values()) {
        expect(seqs[0]).toBe(0);
        expect(seqs.filter((seq, at) => at > 0 && seq > (seqs[at - 1] ?? 0) + 1)).toEqual([]);
      }
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'gives every consumer group its own copy of every message',
    async () => {
      const h = harness();
      const [publisher, first, second] = await Promise.all([h.open(), h.open(), h.open()]);
      const topic = h.name('fanout');
      const a = await h.record(first, { groupId: h.name('group-a'), topics: [topic] });
      const b = await h.record(second, { groupId: h.name('group-b'), topics: [topic] });
      await publisher.publish(
        topic,
        Array.from({ length: 40 }, (_, n) => ({ key: `k${n % 8}`, value: { n } })),
      );

      const everything = Array.from({ length: 40 }, (_, n) => ({ n }));
      const sorted = (values: unknown[]) => [...values].sort((x, y) => (x as { n: number }).n - (y as { n: number }).n);
      await eventually(() => {
        expect(sorted(valuesOf(a))).toEqual(everything);
        expect(sorted(valuesOf(b))).toEqual(everything);
      }, WAIT_MS);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'splits one group between two consumers that together handle every message exactly once',
    async () => {
      const h = harness();
      const [publisher, first, second] = await Promise.all([
        h.open(),
        h.open(h.name('member-a')),
        h.open(h.name('member-b')),
      ]);
      const topic = h.name('split');
      const groupId = h.name('group');
      const a = await h.record(first, { groupId, topics: [topic] });
      const b = await h.record(second, { groupId, topics: [topic] });
      // Both members are ready (joined, partitions split): no failure is injected, so nothing comes twice.
      await publisher.publish(
        topic,
        Array.from({ length: 200 }, (_, n) => ({ key: `player-${n % 40}`, value: { n } })),
      );

      await eventually(() => expect(a.messages.length + b.messages.length).toBe(200), WAIT_MS);
      const offsets = [...a.messages, ...b.messages].map(({ partition, offset }) => `${partition}/${offset}`);
      expect(new Set(offsets).size).toBe(200);
      expect(a.messages.length).toBeGreaterThan(0);
      expect(b.messages.length).toBeGreaterThan(0);
      // A key lives in one partition, and a partition belongs to one member at a time.
      const keysOfA = new Set(a.messages.map(({ key }) => key));
      expect(b.messages.filter(({ key }) => keysOfA.has(key))).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
}
