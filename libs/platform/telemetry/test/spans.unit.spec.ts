import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ROOT_CONTEXT, TraceFlags, context, isSpanContextValid, trace, type Context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { withSpan } from '../src/spans.js';
import { installTracing } from './tracing-harness.js';

const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
const spanId = '00f067aa0ba902b7';
const incoming = trace.setSpanContext(ROOT_CONTEXT, {
  traceId,
  spanId,
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
});
const other = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  spanId: 'bbbbbbbbbbbbbbbb',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
});

/** The span id of the valid trace `work` sees, before and after an await (what a store call or a publish inside it reads). */
async function seenBy(run: (work: () => Promise<unknown>) => Promise<unknown>) {
  const seen: (string | undefined)[] = [];
  const spanIdNow = () => {
    const current = trace.getSpanContext(context.active());
    return current && isSpanContextValid(current) ? current.spanId : undefined;
  };
  await run(async () => {
    seen.push(spanIdNow());
    await new Promise((resolve) => setImmediate(resolve));
    seen.push(spanIdNow());
  });
  return seen;
}

describe('withSpan without an SDK (OTEL_SDK_DISABLED: the no-op tracer, the trace passed through)', () => {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => {
    context.setGlobalContextManager(manager.enable());
  });
  afterAll(() => {
    context.disable();
  });
  const tracer = () => trace.getTracer('no-sdk');
  const within = (parent: Context, work: () => Promise<unknown>) => context.with(parent, work);

  it('runs the work in the incoming trace, across its awaits', async () => {
    const seen = await seenBy((work) => within(incoming, () => withSpan(tracer(), 'store.read', {}, work)));
    expect(seen).toEqual([spanId, spanId]);
  });

  it('runs the work in an explicit parent that is not the active context (a message consumed with its trace)', async () => {
    const seen = await seenBy((work) => within(incoming, () => withSpan(tracer(), 'consume', { parent: other }, work)));
    expect(seen).toEqual(['bbbbbbbbbbbbbbbb', 'bbbbbbbbbbbbbbbb']);
  });

  it('leaves the work without a valid trace when there is none', async () => {
    const seen = await seenBy((work) => within(ROOT_CONTEXT, () => withSpan(tracer(), 'store.read', {}, work)));
    expect(seen).toEqual([undefined, undefined]);
  });

  it("rethrows the work's error and returns its value", async () => {
    await expect(withSpan(tracer(), 'fails', {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(withSpan(tracer(), 'answers', {}, async () => 42)).resolves.toBe(42);
  });
});

describe('withSpan with a recording tracer', () => {
  let tracing: ReturnType<typeof installTracing>;
  beforeAll(() => {
    tracing = installTracing();
  });
  afterAll(() => tracing.uninstall());

  it('makes its span the active one for the work, a child of the incoming trace', async () => {
    let own: string | undefined;
    const seen = await seenBy((work) =>
      context.with(incoming, () =>
        withSpan(tracing.tracer, 'store.read', {}, async (span) => {
          own = span.spanContext().spanId;
          return work();
        }),
      ),
    );
    expect(own).toBeDefined();
    expect(own).not.toBe(spanId);
    expect(seen).toEqual([own, own]);
    const ended = tracing.spanNamed('store.read');
    expect(ended.spanContext().traceId).toBe(traceId);
    expect(ended.parentSpanContext?.spanId).toBe(spanId);
  });
});
