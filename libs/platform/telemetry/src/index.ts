export { initTelemetry, isUntracedPath, type Telemetry } from './init.js';
export { TelemetryConfigError } from './settings.js';
export { extractTraceContext, traceContextFields } from './trace-context.js';
export { traceMessageBus } from './message-bus-tracing.js';
export { traceEventStore } from './event-store-tracing.js';
export { measureEventStore, withAppend } from './event-store-metrics.js';
export {
  createLogger,
  createLogRoot,
  InvalidLogFormatError,
  InvalidLogRepeatSettingError,
  InvalidLogLevelError,
  type LogFormat,
  type Logger,
  type LogRoot,
} from './logger.js';
export { redactUrlSecrets } from './url-secrets.js';
export { createMetrics, type Metrics } from './metrics.js';
export { MetricNames, PARKED_MESSAGES_METRIC, SECONDS_BUCKETS } from './metric-names.js';
export { recordHttpRoute } from './http-route.js';
export { startHttpClientCall, type HttpClientCall, type HttpClientOutcome } from './http-client-call.js';
