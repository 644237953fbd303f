import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import { playerBonusStream, sessionStream } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { createMetrics, MetricNames } from '@reelstream/platform-telemetry';
import { countBonusStateChanges } from './state-change-metrics.js';

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
let dir = '';
let inner: SqliteEventStore;

beforeAll(async () => {
  metrics.setGlobalMeterProvider(provider);
  dir = await mkdtemp(join(tmpdir(), 'state-changes-'));
  inner = SqliteEventStore.open(join(dir, 'events.db'));
});
afterAll(async () => {
  await inner.close();
  await rm(dir, { recursive: true, force: true });
  await provider.shutdown();
  metrics.disable();
});

async function counted(): Promise<[Record<string, unknown>, number][]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((candidate) => candidate.descriptor.name === MetricNames.bonusStateChanges);
  return ((metric?.dataPoints ?? []) as DataPoint<number>[]).map((point) => [point.attributes, point.value]);
}

describe('countBonusStateChanges', () => {
  it('counts the state changes appended to playerBonus streams, by operator (configured ones only) and state', async () => {
    const store = countBonusStateChanges(inner, createMetrics(), (operatorId) => operatorId === 'casino-a');
    const event = (type: string) => ({ type, data: {} });
    await store.append(
      playerBonusStream('casino-a', 'p1'),
      [event('BonusCallRegistered'), event('FreeSpinStarted'), event('FreeSpinSettled'), event('BonusCallCompleted')],
      { expectedRevision: 'no_stream' },
    );
    await store.append(
      playerBonusStream('casino-zz', 'p1'),
      [event('BonusCallRegistered'), event('BonusCallCanceled')],
      {
        expectedRevision: 'no_stream',
      },
    );
    // Another category's events are not bonus state changes, whatever their type.
    await store.append(sessionStream('token-1'), [event('BonusCallExpired')], { expectedRevision: 'no_stream' });
    // A refused append counts nothing.
    await expect(
      store.append(playerBonusStream('casino-a', 'p1'), [event('BonusCallExpired')], { expectedRevision: 0 }),
    ).rejects.toThrow();

    expect(await counted()).toEqual([
      [{ operator: 'casino-a', state: 'active' }, 1],
      [{ operator: 'casino-a', state: 'completed' }, 1],
      [{ operator: 'unknown', state: 'active' }, 1],
      [{ operator: 'unknown', state: 'canceled' }, 1],
    ]);
  });
});
