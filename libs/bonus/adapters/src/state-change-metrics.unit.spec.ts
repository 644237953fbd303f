import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint } from '@opentelemetry/sdk-metrics';
import type { PlayerBonusEvent } from '@reelstream/contracts';
import { createMetrics, MetricNames } from '@reelstream/platform-telemetry';
import { bonusStateChangeCounter } from './state-change-metrics.js';

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

beforeAll(() => {
  metrics.setGlobalMeterProvider(provider);
});
afterAll(async () => {
  await provider.shutdown();
  metrics.disable();
});

/** The counter reads the event's type only: the data is not what this test is about. */
const eventOf = (type: PlayerBonusEvent['type']) => ({ type, data: {} }) as unknown as PlayerBonusEvent;

async function counted(): Promise<[Record<string, unknown>, number][]> {
  const { resourceMetrics } = await reader.collect();
  const metric = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((candidate) => candidate.descriptor.name === MetricNames.bonusStateChanges);
  return ((metric?.dataPoints ?? []) as DataPoint<number>[]).map((point) => [point.attributes, point.value]);
}

describe('bonusStateChangeCounter', () => {
  it('counts the events that change the state of a bonus call, by operator (configured ones only) and state', async () => {
    const count = bonusStateChangeCounter(createMetrics(), (operatorId) => operatorId === 'casino-a');
    for (const type of ['BonusCallRegistered', 'FreeSpinStarted', 'FreeSpinSettled', 'BonusCallCompleted'] as const)
      count('casino-a', eventOf(type));
    // Spins (free or steered) do not change the bonus call's state.
    for (const type of [
      'BonusCallRegistered',
      'RegularBonusSpinSettled',
      'BonusCallCanceled',
      'BonusCallExpired',
    ] as const)
      count('casino-zz', eventOf(type));

    expect(await counted()).toEqual([
      [{ operator: 'casino-a', state: 'active' }, 1],
      [{ operator: 'casino-a', state: 'completed' }, 1],
      [{ operator: 'unknown', state: 'active' }, 1],
      [{ operator: 'unknown', state: 'canceled' }, 1],
      [{ operator: 'unknown', state: 'expired' }, 1],
    ]);
  });
});
