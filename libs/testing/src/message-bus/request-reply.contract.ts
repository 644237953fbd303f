import { expect, it } from '@jest/globals';
import { BusHeaders, isRequestTimeout, reply, type MessageBus } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, type ContractHarness } from './contract-harness.js';
import { eventually } from './eventually.js';

/** A responder that echoes every request back with `reply()`. */
async function startEchoResponder(h: ContractHarness, bus: MessageBus, requestTopic: string): Promise<void> {
  const consumer = await bus.subscribe({
    groupId: h.name('responder'),
    topics: [requestTopic],
    handler: async (request) => reply(bus, request, { echo: request.value, key: request.key }),
  });
  await consumer.ready;
}

/**
 * A responder that answers each request (`{ partition }`) itself, on the partition the request names,
 * and notes when each reply was written.
 */
async function startStrayResponder(h: ContractHarness, bus: MessageBus, requestTopic: string) {
  const written = new Map<string, number>();
  const consumer = await bus.subscribe({
    groupId: h.name('stray-responder'),
    topics: [requestTopic],
    handler: async (request) => {
      const correlationId = request.headers[BusHeaders.correlationId] ?? '';
      const { partition } = request.value as { partition: number };
      await bus.publish(request.headers[BusHeaders.replyTo] ?? '', {
        key: correlationId,
        value: { stray: partition },
        headers: { [BusHeaders.correlationId]: correlationId },
        partition,
      });
      written.set(correlationId, Date.now());
    },
  });
  await consumer.ready;
  return written;
}

/** Request/reply over two topics, routed by correlation id to the instance that asked. */
export function requestReplyCases(harness: () => ContractHarness): void {
  it(
    'answers a request with the reply that carries its correlation id',
    async () => {
      const h = harness();
      const [requester, responder] = await Promise.all([h.open(h.name('requester')), h.open()]);
      const requests = h.name('requests');
      const replies = h.name('replies');
      await startEchoResponder(h, responder, requests);

      const answer = await requester.request(
        requests,
        { key: 'player-7', value: { command: 'CancelBonusCall', platformId: 'p-1' } },
        { replyTopic: replies, timeoutMs: WAIT_MS, correlationId: 'corr-42' },
      );
      expect(answer.topic).toBe(replies);
      expect(answer.headers[BusHeaders.correlationId]).toBe('corr-42');
      expect(answer.value).toEqual({ echo: { command: 'CancelBonusCall', platformId: 'p-1' }, key: 'player-7' });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'routes replies on a shared reply topic only to the requester that asked',
    async () => {
      const h = harness();
      const [first, second, responder] = await Promise.all([
        h.open(h.name('first')),
        h.open(h.name('second')),
        h.open(),
      ]);
      const requests = h.name('requests');
      const replies = h.name('replies');
      await startEchoResponder(h, responder, requests);

      const ask = (bus: MessageBus, from: string, n: number) =>
        bus.request(requests, { key: `${from}-${n}`, value: { from, n } }, { replyTopic: replies, timeoutMs: WAIT_MS });
      const answers = await Promise.all([
        ...Array.from({ length: 8 }, (_, n) => ask(first, 'first', n)),
        ...Array.from({ length: 8 }, (_, n) => ask(second, 'second', n)),
      ]);
      expect(answers.map(({ value }) => (value as { echo: unknown }).echo)).toEqual([
        ...Array.from({ length: 8 }, (_, n) => ({ from: 'first', n })),
        ...Array.from({ length: 8 }, (_, n) => ({ from: 'second', n })),
      ]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'answers each requester on the partition its reply number picks, and a requester reads no other partition',
    async () => {
      const h = harness();
      const [first, second, responder] = await Promise.all([
        h.open(h.name('first'), { replyNumber: 1 }),
        h.open(h.name('second'), { replyNumber: 2 }),
        h.open(),
      ]);
      const requests = h.name('requests');
      const replies = h.name('replies');
      await startEchoResponder(h, responder, requests);
      const ask = (bus: MessageBus, n: number) =>
        bus.request(requests, { key: `k-${n}`, value: { n } }, { replyTopic: replies, timeoutMs: WAIT_MS });
      const answers = await Promise.all([ask(first, 1), ask(second, 2), ask(first, 3)]);
      expect(answers.map(({ partition, value }) => ({ partition, value }))).toEqual([
        { partition: 1, value: { echo: { n: 1 }, key: 'k-1' } },
        { partition: 2, value: { echo: { n: 2 }, key: 'k-2' } },
        { partition: 1, value: { echo: { n: 3 }, key: 'k-3' } },
      ]);

      // A reply written on partition 2 never reaches `first`, though it waits for its correlation id.
      const strays = h.name('stray-requests');
      const written = await startStrayResponder(h, responder, strays);
      const timeoutMs = 3_000;
      const elsewhere = await first
        .request(
          strays,
          { key: 'k-4', value: { partition: 2 } },
          { replyTopic: replies, timeoutMs, correlationId: 'corr-elsewhere' },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const gaveUp = Date.now();
      expect(isRequestTimeout(elsewhere)).toBe(true);
      // The stray reply was written while the request still waited: the case saw a reply go unread.
      expect(written.get('corr-elsewhere')).toBeLessThan(gaveUp);
      // The same reply on its own partition is read.
      const here = await first.request(
        strays,
        { key: 'k-5', value: { partition: 1 } },
        { replyTopic: replies, timeoutMs: WAIT_MS, correlationId: 'corr-here' },
      );
      expect({ partition: here.partition, value: here.value }).toEqual({ partition: 1, value: { stray: 1 } });
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'refuses a message naming a partition its topic does not have, and writes none of its batch',
    async () => {
      const h = harness();
      const bus = await h.open();
      const topic = h.name('named-partitions');
      await expect(
        bus.publish(topic, [
          { key: 'fine', value: { n: 1 } },
          { key: 'beyond', value: { n: 2 }, partition: 100_000 },
        ]),
      ).rejects.toThrow(`message beyond: topic ${topic} has no partition 100000`);
      await expect(bus.publish(topic, { key: 'negative', value: {}, partition: -1 })).rejects.toThrow(RangeError);
      // Published after the refused batch under the key of its first message, so behind it in one partition had
      // that message been written: the first message the topic holds is this one.
      await bus.publish(topic, { key: 'fine', value: { n: 3 } });
      const recorder = await h.record(bus, { groupId: h.name('reader'), topics: [topic] });
      await eventually(() => expect(recorder.messages.length).toBeGreaterThan(0), WAIT_MS);
      expect(recorder.messages.map(({ key, value }) => ({ key, value }))).toEqual([{ key: 'fine', value: { n: 3 } }]);
    },
    CASE_TIMEOUT_MS,
  );

  it(
    'rejects a request nobody answers with RequestTimeoutError after the timeout',
    async () => {
      const h = harness();
      const requester = await h.open(h.name('lonely'));
      const requests = h.name('unanswered');
      const timeoutMs = 400;
      const started = Date.now();
      const failure = await requester
        .request(
          requests,
          { key: 'player-1', value: {} },
          { replyTopic: h.name('replies'), timeoutMs, correlationId: 'corr-lost' },
        )
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      const elapsed = Date.now() - started;
      expect(isRequestTimeout(failure)).toBe(true);
      expect(failure).toMatchObject({ topic: requests, correlationId: 'corr-lost', timeoutMs });
      expect(elapsed).toBeGreaterThanOrEqual(timeoutMs - 5);
      expect(elapsed).toBeLessThan(WAIT_MS);
    },
    CASE_TIMEOUT_MS,
  );
}
