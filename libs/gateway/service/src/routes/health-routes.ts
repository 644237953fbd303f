import { healthEndpoints } from '@reelstream/platform-http';
import type { EventStore } from '@reelstream/platform-ports';
import type { Express } from 'express';

export interface Readiness {
  /** False once the gateway is draining: load balancers stop sending before it closes. */
  accepting(): boolean;
  /** Groups of the process's consumers not taking messages (the platform runs the ledger and dispatcher in this process). */
  unhealthyConsumers?(): string[];
}

/** A stream nobody writes: reading it proves the event store answers. */
const PROBE_STREAM = 'gatewayReadinessProbe-0';

/**
 * `GET /healthz`: the process serves HTTP. `GET /readyz`: it is not draining, every consumer of the
 * process is taking messages (none crashed and being recreated), and the event store answers. The bus is not probed: the ledger being slow must not take every gateway out of the
 * load balancer, it is answered per request with 503 and Retry-After instead.
 */
export function healthRoutes(app: Express, store: EventStore, readiness: Readiness): void {
  app.use(
    healthEndpoints(async () => {
      if (!readiness.accepting()) return { ready: false, status: 'draining' };
      const unhealthy = readiness.unhealthyConsumers?.() ?? [];
      if (unhealthy.length > 0)
        return {
          ready: false,
          status: 'unavailable',
          detail: { reason: 'consumers not taking messages', consumers: unhealthy },
        };
      try {
        await store.streamRevision(PROBE_STREAM);
        return { ready: true };
      } catch {
        return { ready: false, status: 'unavailable', detail: { reason: 'the event store does not answer' } };
      }
    }),
  );
}
