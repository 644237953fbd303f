/**
 * @reelstream/platform-runtime: the process shell every app runs in — telemetry first, configuration,
 * process identity (worker id, instance id), back ends, and the drain on SIGINT/SIGTERM.
 */
export { runService, type ServiceRuntime, type ReadyFields } from './run-service.js';
export { openLeaseHolderDeps } from './service-deps.js';
export { processIdentityEnv, processIdentityOf } from './process-identity.js';
