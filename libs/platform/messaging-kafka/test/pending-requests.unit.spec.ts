import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { BusHeaders, RequestTimeoutError, isRequestTimeout, type Message } from '@reelstream/platform-ports';
import { PendingRequests } from '../src/pending-requests.js';

const replyTo = (correlationId: string | undefined, value: unknown = { ok: true }): Message => ({
  topic: 'bonus.replies',
  partition: 0,
  offset: '1',
  key: correlationId ?? '',
  value,
  headers: correlationId === undefined ? {} : { [BusHeaders.correlationId]: correlationId },
  timestamp: '2026-01-01T00:00:00.000Z',
});

describe('pending requests', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it('resolves the request whose correlation id the reply carries', async () => {
    const pending = new PendingRequests();
    const first = pending.register('c-1', 'bonus.commands', 1_000);
    const second = pending.register('c-2', 'bonus.commands', 1_000);
    expect(pending.settle(replyTo('c-2', { n: 2 }))).toBe(true);
    await expect(second.reply).resolves.toMatchObject({ value: { n: 2 } });
    expect(pending.size).toBe(1);
    expect(pending.settle(replyTo('c-1', { n: 1 }))).toBe(true);
    await expect(first.reply).resolves.toMatchObject({ value: { n: 1 } });
    expect(pending.size).toBe(0);
  });

  it('ignores replies nobody waits for: another instance, no correlation id, or after the first reply', () => {
    const pending = new PendingRequests();
    void pending.register('mine', 'bonus.commands', 1_000).reply;
    expect(pending.settle(replyTo('someone-else'))).toBe(false);
    expect(pending.settle(replyTo(undefined))).toBe(false);
    expect(pending.settle(replyTo('mine'))).toBe(true);
    expect(pending.settle(replyTo('mine'))).toBe(false);
  });

  it('rejects with RequestTimeoutError naming the request topic after timeoutMs, and forgets the request', async () => {
    const pending = new PendingRequests();
    const { reply } = pending.register('c-9', 'bonus.commands', 3_000);
    const outcome = reply.then(
      () => 'resolved',
      (error: unknown) => error,
    );
    jest.advanceTimersByTime(2_999);
    expect(pending.size).toBe(1);
    jest.advanceTimersByTime(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(isRequestTimeout(error)).toBe(true);
    expect(error).toMatchObject({ topic: 'bonus.commands', correlationId: 'c-9', timeoutMs: 3_000 });
    expect(pending.size).toBe(0);
    expect(pending.settle(replyTo('c-9'))).toBe(false);
  });

  it('answers two requests that share a correlation id with the same reply', async () => {
    const pending = new PendingRequests();
    const first = pending.register('retry-1', 'bonus.commands', 1_000);
    const second = pending.register('retry-1', 'bonus.commands', 5_000);
    expect(pending.size).toBe(2);
    pending.settle(replyTo('retry-1'));
    await expect(Promise.all([first.reply, second.reply])).resolves.toHaveLength(2);
  });

  it('cancels one request without touching another with the same id', async () => {
    const pending = new PendingRequests();
    const failed = pending.register('same', 'bonus.commands', 1_000);
    const waiting = pending.register('same', 'bonus.commands', 1_000);
    failed.cancel(new Error('send failed'));
    await expect(failed.reply).rejects.toThrow('send failed');
    expect(pending.size).toBe(1);
    pending.settle(replyTo('same'));
    await expect(waiting.reply).resolves.toMatchObject({ value: { ok: true } });
  });

  it('rejects everything still waiting when the bus closes, and leaves no timer behind', async () => {
    const pending = new PendingRequests();
    const a = pending.register('a', 't', 10_000);
    const b = pending.register('b', 't', 10_000);
    pending.failAll(new Error('bus closed'));
    await expect(a.reply).rejects.toThrow('bus closed');
    await expect(b.reply).rejects.toThrow('bus closed');
    expect(pending.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });
});
