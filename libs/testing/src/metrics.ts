import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader, type DataPoint, type MetricData } from '@opentelemetry/sdk-metrics';

/** A pull reader a test collects from directly. */
class CollectingReader extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface CollectingMeter {
  /** The metric of that name as collected now, undefined when nothing recorded it. */
  metric(name: string): Promise<MetricData | undefined>;
  /** Its data points (none when nothing recorded it). */
  points<T>(name: string): Promise<DataPoint<T>[]>;
  /** Shuts the provider down and puts the no-op global meter back. */
  uninstall(): Promise<void>;
}

/**
 * Makes the global meter provider one the test reads from directly: what the code under test
 * records through `metrics.getMeter()` (the telemetry library's `createMetrics`) is collected on demand.
 */
export function installCollectingMeter(): CollectingMeter {
  const reader = new CollectingReader();
  const provider = new MeterProvider({ readers: [reader] });
  metrics.setGlobalMeterProvider(provider);
  const metric = async (name: string) => {
    const { resourceMetrics } = await reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  };
  return {
    metric,
    points: async <T>(name: string) => ((await metric(name))?.dataPoints ?? []) as DataPoint<T>[],
    async uninstall() {
      await provider.shutdown();
      metrics.disable();
    },
  };
}
