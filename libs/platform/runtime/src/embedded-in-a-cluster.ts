/**
 * The embedded back ends (`sqlite:` event store and bus) keep the money's history in a file of the
 * process's own machine. Processes on one machine share it (`npm start`, the replica proof); the pods
 * of a Kubernetes StatefulSet cannot: each would keep a separate history, a bet recorded in one pod's
 * file and its win looked for in another's. So a process that runs as pod 1 or later of a replicated
 * workload in a cluster (`POD_INDEX` ≥ 1, `KUBERNETES_SERVICE_HOST` set) refuses them at start-up.
 * Pod 0 cannot tell whether it is alone, but it never runs beside another: every later pod refuses.
 */
import type { Backends, Env } from '@reelstream/platform-config';

/** One problem line per embedded back end this process may not use, or none. */
export function embeddedBackendsInACluster(backends: Backends, env: Env): string[] {
  const podIndex = Number(env['POD_INDEX']);
  if (env['KUBERNETES_SERVICE_HOST'] === undefined || !Number.isInteger(podIndex) || podIndex < 1) return [];
  const why = `this is pod ${podIndex} of a replicated workload, and its pods cannot share one SQLite file: use a server back end or run one pod`;
  return [
    ...(backends.eventStoreUrl.startsWith('sqlite:')
      ? [
          `EVENT_STORE_URL: the embedded SQLite event store (${backends.eventStoreUrl}) is refused: ${why} (postgres://, esdb://)`,
        ]
      : []),
    ...(backends.busUrl.startsWith('sqlite:')
      ? [`BUS_URL: the embedded SQLite bus (${backends.busUrl}) is refused: ${why} (kafka://)`]
      : []),
  ];
}
