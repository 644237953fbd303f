import { expect, it } from '@jest/globals';
import { BusHeaders, isRequestTimeout, reply, type MessageBus } from '@reelstream/platform-ports';
import { CASE_TIMEOUT_MS, WAIT_MS, type ContractHarness } from './contract-harness.js';

/** A responder that echoes every request back with `reply()`. */
async function startEchoResponder(h: ContractHarness, bus: MessageBus, requestTopic: string): Promise<void> {
  const consumer = await bus.subscribe({
    groupId: h.name('responder'),
    topics: [requestTopic],
    handler: async (request) => reply(bus, request, { echo: request.value, key: request.key }),
  });
  await consumer.ready;
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
