import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ConsoleMetricExporter, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { NoopSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { resolveTelemetrySettings, type Env, type TelemetrySettings } from './settings.js';
import { samplerFor } from './sampler.js';
import { redactSpanUrlSecrets } from './url-secrets.js';

export interface InitTelemetryOptions {
  serviceName: string;
  serviceVersion?: string;
  /** `service.instance.id` of the resource: the process identity's instance id (one per process). */
  serviceInstanceId?: string;
  /** Where the `OTEL_*` decisions are read from. Default `process.env`. */
  env?: Env;
  /** Patch `node:http` for server and client spans. Default true. */
  instrumentHttp?: boolean;
}

/** Event-loop delay, heap and GC metrics; sampled every 10 ms (the instrumentation's default precision). */
const RUNTIME_MONITORING_PRECISION_MS = 10;

export interface Telemetry {
  /** What the process actually runs with (the first caller's service wins). */
  readonly settings: TelemetrySettings;
  /** Flushes and stops telemetry once every caller of `initTelemetry` has shut down. */
  shutdown(): Promise<void>;
}

/** Probe and scrape requests would drown the real traffic in traces. */
const untracedPaths: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** `/healthz`, `/readyz`, `/metrics` (a query string aside): requests no span is made for. */
export function isUntracedPath(url: string): boolean {
  return untracedPaths.has(url.split('?')[0] ?? '');
}

/** Not among the stable attributes of the semantic-conventions package this version pins: spelled out. */
const ATTR_SERVICE_INSTANCE_ID = 'service.instance.id';

interface Installed {
  settings: TelemetrySettings;
  users: number;
  stop: () => Promise<void>;
}

let installed: Installed | undefined;

/**
 * Sets OpenTelemetry up for this process from the standard `OTEL_*` variables (see
 * `resolveTelemetrySettings`): the NodeSDK with the HTTP instrumentation, the W3C trace-context
 * propagator and an async-local context manager. With nothing configured it still registers a
 * tracer provider, so spans have ids that propagate over the bus and appear in logs, but
 * exports nothing. Idempotent per process: the all-in-one `platform` calls it for several
 * services; later calls share the first setup and each gets its own `shutdown`.
 *
 * Which exporters run is decided from `env`; the OpenTelemetry exporters themselves read their
 * details (endpoint, headers, protocol, sampler) from `process.env`, which is the same object
 * unless a test passes its own. The sampler is the exception: it is built from `env`
 * (`OTEL_TRACES_SAMPLER`, `OTEL_TRACES_SAMPLER_ARG`), so a bad value fails the start.
 */
export function initTelemetry(options: InitTelemetryOptions): Telemetry {
  installed ??= install(options);
  const current = installed;
  current.users += 1;
  let released = false;
  return {
    settings: current.settings,
    async shutdown() {
      if (released) return;
      released = true;
      current.users -= 1;
      if (current.users > 0) return;
      if (installed === current) installed = undefined;
      await current.stop();
    },
  };
}

function install(options: InitTelemetryOptions): Installed {
  const settings = resolveTelemetrySettings(options, options.env ?? process.env);
  if (settings.disabled) return { settings, users: 0, stop: passThroughOnly() };

  const http =
    options.instrumentHttp === false
      ? undefined
      : new HttpInstrumentation({
          ignoreIncomingRequestHook: (request) => isUntracedPath(request.url ?? ''),
          // Session tokens in URLs (the launch host's) never reach a span: redacted when the span starts and again before it ends.
          requestHook: (span) => redactSpanUrlSecrets(span),
          applyCustomAttributesOnSpan: (span) => redactSpanUrlSecrets(span),
        });
  const metricReaders = metricReadersFor(settings);
  const runtime = new RuntimeNodeInstrumentation({ monitoringPrecision: RUNTIME_MONITORING_PRECISION_MS });
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    resource: defaultResource().merge(
      resourceFromAttributes({
        ...(settings.serviceVersion !== undefined ? { [ATTR_SERVICE_VERSION]: settings.serviceVersion } : {}),
        ...(options.serviceInstanceId !== undefined ? { [ATTR_SERVICE_INSTANCE_ID]: options.serviceInstanceId } : {}),
      }),
    ),
    instrumentations: http ? [http, runtime] : [runtime],
    sampler: samplerFor(settings.sampler),
    // No exporter: a processor that drops spans keeps the provider (and so real ids) in place.
    ...(settings.traceExporters.length === 0 ? { spanProcessors: [new NoopSpanProcessor()] } : {}),
    ...(metricReaders ? { metricReaders } : {}),
    // Logs go to stdout through pino (createLogger); the SDK's log pipeline stays empty.
    logRecordProcessors: [],
  });
  sdk.start();
  return {
    settings,
    users: 0,
    async stop() {
      try {
        await sdk.shutdown();
      } finally {
        http?.disable();
        runtime.disable();
        unregisterGlobals();
      }
    },
  };
}

/**
 * Readers we can build from `settings` alone. OTLP metrics need the SDK's own exporter
 * factory, which reads `process.env`: then every reader comes from there (undefined here).
 */
function metricReadersFor(settings: TelemetrySettings): IMetricReader[] | undefined {
  if (settings.metricExporters.includes('otlp')) return undefined;
  return settings.metricExporters.map((name) =>
    name === 'prometheus'
      ? new PrometheusExporter({
          port: settings.prometheus.port,
          ...(settings.prometheus.host ? { host: settings.prometheus.host } : {}),
        })
      : new PeriodicExportingMetricReader({ exporter: new ConsoleMetricExporter() }),
  );
}

/** `OTEL_SDK_DISABLED`: no spans of our own, but an incoming trace context still flows through. */
function passThroughOnly(): () => Promise<void> {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(
    new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
  );
  return async () => unregisterGlobals();
}

/** Lets a later `initTelemetry` (a restarted service in tests) register again. */
function unregisterGlobals(): void {
  trace.disable();
  metrics.disable();
  propagation.disable();
  context.disable();
}
