import { expect, it } from '@jest/globals';
import { BusHeaders } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, valuesOf, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

const seqs = (values: unknown[]) => values.map((value) => (value as { seq: number }).seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, n) => from + n);

/** Offsets: what is committed, what comes again, where a group starts, what happens to poison. */
export function commitCases(harness: () => ContractHarness): void {
  it(
    'delivers a message left uncommitted by stop() again to the next consumer of the group, at the same offset',
    async () => {
      const h = harness();
      const [publisher, first, second] = await Promise.all([h.open(), h.open(), h.open()]);
      const topic = h.name('redeliver');
      const groupId = h.name('group');
      // The first consumer fails and then sits in a long retry delay: its message is never committed.
      const failing = await h.record(first, {
        groupId,
        topics: [topic],
        retryDelayMs: () => 120_000,
        onMessage: () => {
          throw new Error('handler crashed before finishing');
        },
      });
      await publisher.publish(topic, { key: 'player-1', value: { seq: 0 } });
      const [seen] = await eventually(() => {
        expect(failing.attempts.size).toBe(1);
        return [...failing.attempts.keys()];
      }, WAIT_MS);

      const stopping = Date.now();
      await failing.consumer.stop();
      expect(Date.now() - stopping).toBeLessThan(20_000);

      const next = await h.record(second, { groupId, topics: [topic] });
      await eventually(() => expect(next.messages).toHaveLength(1), WAIT_MS);
      const [message] = next.messages;
      expect(`${message?.partition}/${message?.offset}`).toBe(seen);
      expect(message?.value).toEqual({ seq: 0 });
      expect(failing.messages).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'resumes a group after its committed offsets, handling nothing twice across a clean stop and start',
    async () => {
      const h = harness();
      const [publisher, first, second] = await Promise.all([h.open(), h.open(), h.open()]);
      const topic = h.name('resume');
      const groupId = h.name('group');
      // One key, so one partition: anything handled again would arrive before the new messages.
      const before = await h.record(first, { groupId, topics: [topic] });
      await publisher.publish(
        topic,
        range(0, 10).map((seq) => ({ key: 'player-1', value: { seq } })),
      );
      await eventually(() => expect(before.messages).toHaveLength(10), WAIT_MS);
      await before.consumer.stop();

      await publisher.publish(
        topic,
        range(10, 20).map((seq) => ({ key: 'player-1', value: { seq } })),
      );
      const after = await h.record(second, { groupId, topics: [topic], fromOffset: 'earliest' });
      await eventually(() => expect(seqs(valuesOf(after))).toEqual(range(10, 20)), WAIT_MS);
      expect(seqs(valuesOf(before))).toEqual(range(0, 10));
    },
    CASE_TIMEOUT_MS,
  );

  it(
    "starts a group without committed offsets at the log end with fromOffset 'latest' and at the beginning with 'earliest'",
    async () => {
      const h = harness();
      const [publisher, consumers] = await Promise.all([h.open(), h.open()]);
      const topic = h.name('from-offset');
      await publisher.publish(
        topic,
        range(0, 5).map((seq) => ({ key: 'player-1', value: { seq } })),
      );

      const latest = await h.record(consumers, { groupId: h.name('latest'), topics: [topic], fromOffset: 'latest' });
      const earliest = await h.record(consumers, {
        groupId: h.name('earliest'),
        topics: [topic],
        fromOffset: 'earliest',
      });
      await publisher.publish(
        topic,
        range(5, 10).map((seq) => ({ key: 'player-1', value: { seq } })),
      );

      await eventually(() => {
        expect(seqs(valuesOf(earliest))).toEqual(range(0, 10));
        expect(seqs(valuesOf(latest))).toEqual(range(5, 10));
      }, WAIT_MS);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'retries a poison message maxAttempts times, parks it on the dead-letter topic with the dead-letter headers, and moves its key on',
    async () => {
      const h = harness();
      const [publisher, consumers] = await Promise.all([h.open(), h.open()]);
      const topic = h.name('poison');
      const groupId = h.name('group');
      const worker = await h.record(consumers, {
        groupId,
        topics: [topic],
        maxAttempts: 3,
        retryDelayMs: () => 10,
        onMessage: (message) => {
          if ((message.value as { poison?: boolean }).poison) throw new Error(`cannot settle round ${message.key}`);
        },
      });
      await publisher.publish(topic, [
        { key: 'player-1', value: { seq: 0 } },
        { key: 'player-1', value: { seq: 1, poison: true }, headers: { 'x-kind': 'win' } },
        { key: 'player-1', value: { seq: 2 } },
        { key: 'player-1', value: { seq: 3 } },
      ]);

      await eventually(() => expect(seqs(valuesOf(worker))).toEqual([0, 2, 3]), WAIT_MS);
      const poisonAttempts = [...worker.attempts.values()].filter((attempts) => attempts.length > 1);
      expect(poisonAttempts).toEqual([[1, 2, 3]]);
      const poisonOffset = [...worker.attempts.entries()].find(([, attempts]) => attempts.length > 1)?.[0];

      const parked = await h.record(consumers, {
        groupId: h.name('dlq-reader'),
        topics: [`${topic}.dlq`],
        fromOffset: 'earliest',
      });
      await eventually(() => expect(parked.messages).toHaveLength(1), WAIT_MS);
      const [dead] = parked.messages;
      expect(dead?.key).toBe('player-1');
      expect(dead?.value).toEqual({ seq: 1, poison: true });
      expect(dead?.headers).toMatchObject({
        'x-kind': 'win',
        [BusHeaders.deadLetterAttempts]: '3',
        [BusHeaders.originalTopic]: topic,
      });
      expect(dead?.headers[BusHeaders.deadLetterReason]).toContain('cannot settle round player-1');
      expect(`${dead?.headers[BusHeaders.originalPartition]}/${dead?.headers[BusHeaders.originalOffset]}`).toBe(
        poisonOffset,
      );

      // Parking committed the poison message: the group's next consumer starts after it.
      await worker.consumer.stop();
      const successor = await h.record(consumers, { groupId, topics: [topic] });
      await publisher.publish(topic, { key: 'player-1', value: { seq: 4 } });
      await eventually(() => expect(seqs(valuesOf(successor))).toEqual([4]), WAIT_MS);
    },
    CASE_TIMEOUT_MS,
  );
}
