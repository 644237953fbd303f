import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind, context, trace } from '@opentelemetry/api';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import type { MessageBus } from '@reelstream/platform-ports';
import { traceMessageBus } from '../src/message-bus-tracing.js';
import { ancestry, installTracing } from './tracing-harness.js';

const tracing = installTracing();
let dir: string;
let inner: SqliteMessageBus;
let bus: MessageBus;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reelstream-telemetry-'));
  inner = await SqliteMessageBus.open(join(dir, 'bus.db'), { partitions: 4, synchronous: 'NORMAL' });
  bus = traceMessageBus(inner, { system: 'sqlite' });
});
afterAll(async () => {
  await bus.close();
  await tracing.uninstall();
  await rm(dir, { recursive: true, force: true });
});

describe('trace propagation over the SQLite bus', () => {
  it('a span started before publish is the parent of the consumer’s span, on the SQLite bus', async () => {
    const handled: { traceId: string | undefined; headers: Record<string, string> }[] = [];
    const consumer = await bus.subscribe({
      groupId: 'bonus-ledger',
      topics: ['bonus.commands'],
      handler: async (message) => {
        handled.push({ traceId: trace.getActiveSpan()?.spanContext().traceId, headers: message.headers });
      },
    });
    await consumer.ready;

    const started = tracing.tracer.startSpan('POST /v1/bonus-call');
    await context.with(trace.setSpan(context.active(), started), () =>
      bus.publish('bonus.commands', { key: 'player-42', value: { type: 'CancelBonusCall', platformId: 'pl-1' } }),
    );
    started.end();

    const consumerSpan = await tracing.waitForSpan('process bonus.commands');
    await consumer.stop();

    const producer = tracing.spanNamed('send bonus.commands');
    const { traceId, spanId } = started.spanContext();
    expect(consumerSpan.kind).toBe(SpanKind.CONSUMER);
    expect(consumerSpan.spanContext().traceId).toBe(traceId);
    expect(producer.spanContext().traceId).toBe(traceId);
    expect(ancestry(consumerSpan, tracing.spans())).toEqual([producer.spanContext().spanId, spanId]);
    expect(consumerSpan.attributes).toMatchObject({
      'messaging.system': 'sqlite',
      'messaging.destination.name': 'bonus.commands',
      'messaging.consumer.group.name': 'bonus-ledger',
      'messaging.kafka.message.key': 'player-42',
      'reelstream.messaging.delivery_attempt': 1,
    });
    expect(handled).toEqual([
      {
        traceId,
        headers: expect.objectContaining({ traceparent: `00-${traceId}-${producer.spanContext().spanId}-01` }),
      },
    ]);
  });
});
