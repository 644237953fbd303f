export { initTelemetry, type InitTelemetryOptions, type Telemetry } from './init.js';
export {
  resolveTelemetrySettings,
  TelemetryConfigError,
  traceExporterNames,
  metricExporterNames,
  type Env,
  type TelemetrySettings,
  type TraceExporterName,
  type MetricExporterName,
} from './settings.js';
export {
  injectTraceContext,
  extractTraceContext,
  contextFromEventMetadata,
  traceContextFields,
  type TraceCarrier,
} from './trace-context.js';
export { withSpan, recordFailure, type SpanOptions } from './spans.js';
export { redactUrlSecrets, redactSpanUrlSecrets, REDACTED } from './url-secrets.js';
export { traceMessageBus, type TraceMessageBusOptions } from './message-bus-tracing.js';
export { traceEventStore, type TraceEventStoreOptions } from './event-store-tracing.js';
export {
  createLogger,
  parseLogLevel,
  serialiseError,
  logLevels,
  InvalidLogLevelError,
  type Logger,
  type LogLevel,
  type LogFields,
  type LogDestination,
  type CreateLoggerOptions,
} from './logger.js';
export {
  createMetrics,
  PARKED_MESSAGES_METRIC,
  type Metrics,
  type CounterMetric,
  type HistogramMetric,
  type MetricAttributes,
  type InstrumentOptions,
  type HistogramOptions,
} from './metrics.js';
export { MessagingAttributes, EventStoreAttributes } from './semconv.js';
