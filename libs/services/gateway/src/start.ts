import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeGracefully, reachableUrl } from '@reelstream/http';
import { createGatewayApp, type GatewayDeps } from './app.js';
import type { GatewayConfig } from './config/gateway-env.js';

export type GatewayPorts = Omit<GatewayDeps, 'config' | 'readiness'>;

export interface RunningGateway {
  readonly port: number;
  /** `http://127.0.0.1:{port}` or the configured host. */
  readonly url: string;
  /** Stops accepting, lets requests in flight finish (up to `drainMs`), then closes every connection. */
  stop(drainMs?: number): Promise<void>;
}

const DEFAULT_DRAIN_MS = 10_000;

/** Listens on `config.port` (0 = any free port). The back ends stay open: they are the caller's. */
export async function startGateway(ports: GatewayPorts, config: GatewayConfig): Promise<RunningGateway> {
  let accepting = true;
  const app = createGatewayApp({ ...ports, config, readiness: { accepting: () => accepting } });
  // Without a host node listens on every interface, IPv6 included where the machine has it.
  const server: Server = config.host === undefined ? app.listen(config.port) : app.listen(config.port, config.host);
  await once(server, 'listening');
  // Node's default keep-alive timeout (5 s) is shorter than most load balancers' idle timeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const { port } = server.address() as AddressInfo;
  ports.logger.info('gateway listening', { port });

  let stopping: Promise<void> | undefined;
  return {
    port,
    url: reachableUrl(config.host, port),
    stop(drainMs = DEFAULT_DRAIN_MS) {
      stopping ??= (async () => {
        accepting = false;
        await closeGracefully(server, drainMs);
        ports.logger.info('gateway stopped', { port });
      })();
      return stopping;
    },
  };
}
