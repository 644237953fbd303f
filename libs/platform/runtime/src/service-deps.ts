import type { Backends } from '@reelstream/platform-config';
import type { ServiceRuntime } from './run-service.js';

/**
 * The deps a service that holds leases takes from its process, named as its `start…` function names them:
 * the back ends of `backends`, opened (traced); this replica's instance id as the owner of its leases; and
 * the runtime's clock, ids and logger.
 */
export async function openLeaseHolderDeps(runtime: ServiceRuntime, backends: Backends) {
  const { store, leases, bus } = await runtime.openBackends(backends);
  const { clock, ids, logger } = runtime;
  return { store, leases, instanceId: runtime.identity.instanceId, bus, clock, ids, logger };
}
