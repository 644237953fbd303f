import { afterAll, describe, expect, it } from '@jest/globals';
import { metrics } from '@opentelemetry/api';
import { DataPointType, MeterProvider, MetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { createMetrics } from '../src/metrics.js';

/** A pull reader the test collects from directly. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

const reader = new CollectingReader();
const provider = new MeterProvider({ readers: [reader] });
metrics.setGlobalMeterProvider(provider);
afterAll(async () => {
  await provider.shutdown();
  metrics.disable();
});

async function collected(name: string) {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  if (!metric) throw new Error(`metric ${name} not collected`);
  return metric;
}

describe('createMetrics', () => {
  it('counts per attribute set, one instrument per name', async () => {
    const m = createMetrics('wallet-dispatcher');
    const calls = m.counter<'command' | 'outcome'>('wallet.callbacks', {
      description: 'wallet callbacks sent',
      unit: '{call}',
    });
    calls.add(1, { command: 'bet', outcome: 'ok' });
    calls.add(2, { command: 'bet', outcome: 'ok' });
    m.counter<'command' | 'outcome'>('wallet.callbacks').add(undefined, { command: 'win', outcome: 'timeout' });

    const metric = await collected('wallet.callbacks');
    expect(metric.descriptor).toMatchObject({ description: 'wallet callbacks sent', unit: '{call}' });
    const points = (metric.dataPoints as DataPoint<number>[]).map((p) => [p.attributes, p.value]);
    expect(points).toEqual([
      [{ command: 'bet', outcome: 'ok' }, 3],
      [{ command: 'win', outcome: 'timeout' }, 1],
    ]);
  });

  it('records histograms into the given buckets and times work whether it resolves or throws', async () => {
    const m = createMetrics('gateway');
    const latency = m.histogram<'route'>('http.latency', { unit: 'ms', boundaries: [5, 50, 500] });
    latency.record(3, { route: 'register' });
    latency.record(70, { route: 'register' });
    await expect(latency.time(async () => 'done', { route: 'status' })).resolves.toBe('done');
    await expect(latency.time(() => Promise.reject(new Error('boom')), { route: 'status' })).rejects.toThrow('boom');

    const metric = await collected('http.latency');
    expect(metric.dataPointType).toBe(DataPointType.HISTOGRAM);
    const points = metric.dataPoints as DataPoint<Histogram>[];
    const register = points.find((p) => p.attributes['route'] === 'register');
    expect(register?.value.buckets).toEqual({ boundaries: [5, 50, 500], counts: [1, 0, 1, 0] });
    expect(
      points.filter((p) => p.attributes['route'] === 'status').map((p) => [p.attributes['outcome'], p.value.count]),
    ).toEqual([
      ['ok', 1],
      ['error', 1],
    ]);
  });
});
