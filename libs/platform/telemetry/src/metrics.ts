import {
  context,
  metrics,
  type Attributes,
  type Histogram,
  type ObservableResult,
  type Counter as OtelCounter,
} from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';

/** Attribute values a metric may carry: keep them low-cardinality (no ids, no amounts). */
type MetricAttributes<Key extends string> = Partial<Record<Key, string | number | boolean>>;

interface InstrumentOptions {
  description?: string;
  /** UCUM unit, e.g. `ms`, `s`, `{message}`. */
  unit?: string;
}

interface HistogramOptions extends InstrumentOptions {
  /** Explicit bucket boundaries (an advice the SDK applies unless a view overrides it). */
  boundaries?: readonly number[];
}

interface CounterMetric<Key extends string = string> {
  add(value?: number, attributes?: MetricAttributes<Key>): void;
}

interface HistogramMetric<Key extends string = string> {
  record(value: number, attributes?: MetricAttributes<Key>): void;
  /** Runs `work` and records its duration in ms, whether it resolves or throws (`outcome` says which). */
  time<T>(work: () => Promise<T>, attributes?: MetricAttributes<Key>): Promise<T>;
}

/** One value of an observable gauge, with its attributes. */
interface GaugeReading<Key extends string = string> {
  value: number;
  attributes?: MetricAttributes<Key>;
}

export interface Metrics {
  counter<Key extends string = string>(name: string, options?: InstrumentOptions): CounterMetric<Key>;
  histogram<Key extends string = string>(name: string, options?: HistogramOptions): HistogramMetric<Key>;
  /**
   * A gauge read at every collection (a scrape): `observe` returns the current values. A failing
   * or slow read reports nothing for that collection rather than failing the scrape. Returns the
   * function that stops observing (a stopped service's gauge disappears).
   */
  observableGauge<Key extends string = string>(
    name: string,
    options: InstrumentOptions,
    observe: () => Promise<readonly GaugeReading<Key>[]> | readonly GaugeReading<Key>[],
  ): () => void;
}

/**
 * The one instrumentation scope of the services' own metrics. One scope, not one per service:
 * the Prometheus exporter writes a metric once per scope, and in the all-in-one platform two
 * services report the same metric (worker lag, parked messages); the service is the resource's
 * `service.name` anyway.
 */
const METER_NAME = '@reelstream/metrics';

/** Records values, or times work with its outcome (`ok` or `error`) as an attribute. */
function histogramMetric<Key extends string>(histogram: Histogram): HistogramMetric<Key> {
  return {
    record: (value, attributes) => histogram.record(value, attributes as Attributes | undefined),
    async time(work, attributes) {
      const started = performance.now();
      let outcome = 'ok';
      try {
        return await work();
      } catch (error) {
        outcome = 'error';
        throw error;
      } finally {
        histogram.record(performance.now() - started, { ...(attributes as Attributes | undefined), outcome });
      }
    },
  };
}

/**
 * Typed helpers over the OpenTelemetry metrics API. Instruments are created
 * once and reused. Without a configured exporter (`OTEL_METRICS_EXPORTER`) the global meter
 * is a no-op, so recording costs next to nothing.
 */
export function createMetrics(scope: string = METER_NAME): Metrics {
  const meter = metrics.getMeter(scope);
  const counters = new Map<string, OtelCounter>();
  const histograms = new Map<string, Histogram>();

  return {
    counter<Key extends string>(name: string, options: InstrumentOptions = {}): CounterMetric<Key> {
      let instrument = counters.get(name);
      if (!instrument) {
        instrument = meter.createCounter(name, options);
        counters.set(name, instrument);
      }
      const counter = instrument;
      return { add: (value = 1, attributes) => counter.add(value, attributes as Attributes | undefined) };
    },

    histogram<Key extends string>(name: string, options: HistogramOptions = {}): HistogramMetric<Key> {
      let instrument = histograms.get(name);
      if (!instrument) {
        const { boundaries, ...rest } = options;
        instrument = meter.createHistogram(name, {
          ...rest,
          ...(boundaries ? { advice: { explicitBucketBoundaries: [...boundaries] } } : {}),
        });
        histograms.set(name, instrument);
      }
      return histogramMetric(instrument);
    },

    observableGauge(name, options, observe) {
      const gauge = meter.createObservableGauge(name, options);
      const callback = async (result: ObservableResult) => {
        let readings: readonly GaugeReading[];
        try {
          // What a gauge reads (the event store, the bus) is no part of any trace.
          readings = await context.with(suppressTracing(context.active()), observe);
        } catch {
          return;
        }
        for (const reading of readings) result.observe(reading.value, reading.attributes as Attributes | undefined);
      };
      gauge.addCallback(callback);
      return () => gauge.removeCallback(callback);
    },
  };
}
