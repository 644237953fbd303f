/**
 * @reelstream/runtime: the process shell every app runs in — telemetry first, configuration,
 * process identity (worker id, instance id), back ends, and the drain on SIGINT/SIGTERM.
 */
export { runService, type ServiceRuntime, type ReadyFields, type RunServiceOptions } from './run-service.js';
export { openBackends, checkBackendUrls, reportParkedMessages, type OpenedBackends } from './open-backends.js';
export { ConsumerRegistry, type ConsumerHealth } from './consumer-health.js';
export {
  DEFAULT_WORKER_IDS,
  SERVICE_NAMES,
  processIdentityEnv,
  processIdentityOf,
  defaultInstanceId,
  type ServiceName,
  type ProcessIdentity,
  type ProcessIdentityEnv,
} from './process-identity.js';
export {
  describeStartupFailure,
  isConfigurationError,
  EXIT_CONFIGURATION,
  EXIT_FAILURE,
  type StartupFailure,
} from './startup-failure.js';
