import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname } from 'node:path';
import {
  createHttpServer,
  processDataDirs,
  reachableUrl,
  StopSequence,
  stopWithDrain,
} from '@reelstream/platform-http';
import { createGatewayApp, type GatewayDeps } from './app.js';
import type { GatewayConfig } from './config/gateway-env.js';
import { joinGatewayLimitsGroup } from './http/limit-share.js';
import { openReconciliationReads } from './reconciliation/reconciliation-reads.js';

export type GatewayPorts = Omit<GatewayDeps, 'config' | 'readiness' | 'reconciliation' | 'limitShare'> & {
  /** The process's consumers (`OpenedBackends.consumers`): `/readyz` is 503 while one is unhealthy. */
  consumers?: { unhealthy(): string[] };
};

export interface RunningGateway {
  readonly port: number;
  /** `http://127.0.0.1:{port}` or the configured host. */
  readonly url: string;
  /** This pod's share of the operators' rate limits and campaign budgets now (its `gateway` group's share). */
  limitShare(): number;
  /** Stops accepting, lets requests in flight finish (up to `drainMs`), then closes every connection. */
  stop(drainMs?: number): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;

/** Listens on `config.port` (0 = any free port). The back ends stay open: they are the caller's. */
export async function startGateway(ports: GatewayPorts, config: GatewayConfig): Promise<RunningGateway> {
  let accepting = true;
  const { consumers, ...deps } = ports;
  let unwatchDataDir = (): void => undefined;
  if (config.readModelFile !== undefined && config.readModelFile !== ':memory:') {
    mkdirSync(dirname(config.readModelFile), { recursive: true });
    // A full or read-only read-model disk takes the gateway out of rotation (`/readyz` 503 naming the directory).
    unwatchDataDir = processDataDirs.watch(dirname(config.readModelFile));
  }
  // Projected from the log's start on a new file; a page is then an index range read of it.
  const reconciliation = openReconciliationReads({
    store: ports.store,
    readModels: ports.reconciliationReadModels,
    logger: ports.logger,
    ...(config.readModelFile === undefined ? {} : { file: config.readModelFile }),
  });
  // Joined before listening, so the first request already meets this pod's share of the operators' limits.
  const limits = await joinGatewayLimitsGroup(ports.bus);
  const app = createGatewayApp({
    ...deps,
    reconciliation,
    limitShare: () => limits.share,
    config,
    readiness: {
      accepting: () => accepting,
      ...(consumers ? { unhealthyConsumers: () => consumers.unhealthy() } : {}),
    },
  });
  // Without a host node listens on every interface, IPv6 included where the machine has it.
  // Request time limits and a keep-alive longer than a load balancer's idle timeout (createHttpServer).
  const server: Server = createHttpServer(app);
  if (config.host === undefined) server.listen(config.port);
  else server.listen(config.port, config.host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  ports.logger.info('gateway listening', { port });

  const stops = new StopSequence();
  stops.add(() => ports.logger.info('gateway stopped', { port }));
  stops.add(() => reconciliation.close());
  stops.add(() => unwatchDataDir());
  // Left after the last request: the other pods then take this one's share.
  stops.add(() => limits.stop());
  return {
    port,
    url: reachableUrl(config.host, port),
    limitShare: () => limits.share,
    stop: stopWithDrain(stops, server, DEFAULT_DRAIN_MS, () => (accepting = false)),
  };
}
