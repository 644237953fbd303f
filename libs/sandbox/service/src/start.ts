/**
 * startOperatorSandbox: the reference operator wallet as an HTTP server — `POST /wallet/:operatorId`
 * (the callback URL), `POST /webhooks/:operatorId` (the bonus webhook receiver), the admin API, `/healthz` and `/readyz` — on its own SQLite file.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import {
  closeGracefully,
  createHttpServer,
  healthEndpoints,
  StopSequence,
  withPlatformDefaults,
} from '@reelstream/platform-http';
import type { OperatorConfig } from '@reelstream/contracts';
import type { Clock } from '@reelstream/platform-ports';
import { adminRouter } from './admin-routes.js';
import type { OperatorSandboxConfig } from './config.js';
import { Delays } from './delays.js';
import { FaultRegistry } from './faults.js';
import { checkSandboxDatabase, LedgerViews, openSandboxDatabase, SandboxWallet } from '@reelstream/sandbox-adapters';
import { walletRouter } from './wallet-route.js';
import { WebhookInbox, webhookRouter } from './webhook-route.js';
import { recordHttpRoute } from '@reelstream/platform-telemetry';

/** What the callback and admin routes accept (`64kb` in their body parsers). */
const BODY_LIMIT_BYTES = 64 * 1024;

export interface OperatorSandboxDeps {
  operators: { get(id: string): OperatorConfig | undefined };
  clock?: Clock;
  logger?: {
    info(msg: string, fields?: Record<string, unknown>): void;
    error(msg: string, fields?: Record<string, unknown>): void;
  };
}

export interface OperatorSandbox {
  /** `http://host:port`; the callback URL of operator X is `${url}/wallet/X`. */
  readonly url: string;
  readonly port: number;
  readonly wallet: SandboxWallet;
  readonly views: LedgerViews;
  readonly faults: FaultRegistry;
  /** The bonus webhooks received at `${url}/webhooks/X`, once per eventId. */
  readonly webhooks: WebhookInbox;
  stop(): Promise<void>;
}

// Long because: the service's wiring in start order, one call per step, with the stop sequence registered step by step
// alongside.
export async function startOperatorSandbox(
  deps: OperatorSandboxDeps,
  config: OperatorSandboxConfig,
): Promise<OperatorSandbox> {
  const now = () => (deps.clock?.now() ?? new Date()).toISOString();
  const stops = new StopSequence();
  const db = openSandboxDatabase(config.databasePath, { synchronous: config.synchronous });
  stops.add(() => void db.close());
  const wallet = new SandboxWallet(db, {
    autoCreateBalance: config.autoCreateBalance,
    defaultCurrency: (id) => deps.operators.get(id)?.currency,
    now,
  });
  const views = new LedgerViews(db, now);
  const faults = new FaultRegistry();
  const delays = new Delays();
  if (config.latencyMs > 0) faults.add({ latencyMs: config.latencyMs });

  // The platform's defaults: a wallet's answers are live state too (no ETag computed per answer), and the admin
  // API's filters are plain strings (the simple query parser).
  const app = withPlatformDefaults(express(), undefined);
  app.use(recordHttpRoute());
  app.use(
    healthEndpoints(() => {
      checkSandboxDatabase(db);
      return { ready: true };
    }),
  );
  app.use(
    walletRouter({
      operators: deps.operators,
      wallet,
      views,
      faults,
      delays,
      nowMs: () => (deps.clock?.now() ?? new Date()).getTime(),
    }),
  );
  const webhooks = new WebhookInbox();
  app.use(
    webhookRouter({
      operators: deps.operators,
      inbox: webhooks,
      nowMs: () => (deps.clock?.now() ?? new Date()).getTime(),
    }),
  );
  app.use(adminRouter({ views, faults, adminToken: config.adminToken }));
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    const refusal = clientRefusalOf(error);
    if (refusal === undefined) deps.logger?.error('sandbox request failed', { error });
    if (res.headersSent) return;
    const { status, message } = refusal ?? { status: 500, message: 'internal error' };
    // A callback gets an answer in the callback's shape; the admin API its own.
    res
      .status(status)
      .json(req.path.startsWith('/admin') ? { error: message } : { balance: 0, statusCode: 'ERR_UNKNOWN', message });
  });

  const server: Server = createHttpServer(app, { keepAliveTimeoutMs: 60_000 });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await stops.stop();
    throw error;
  }
  stops.add(() => closeGracefully(server, 0));
  // First of all: callbacks held by an injected delay are cut short, so the close does not wait for them.
  stops.add(() => delays.stop());
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  deps.logger?.info('operator sandbox listening', { port, database: config.databasePath });

  return {
    url: `http://${host}:${port}`,
    port,
    wallet,
    views,
    faults,
    webhooks,
    stop: () => stops.stop(),
  };
}

/** The body parsers' refusals (a body over the limit, a bad encoding): the caller's error, answered with its status. */
function clientRefusalOf(error: unknown): { status: number; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type, limit } = error as { status?: unknown; type?: unknown; limit?: unknown };
  if (type === 'entity.too.large')
    return {
      status: 413,
      message: `the request body is larger than ${typeof limit === 'number' ? limit : BODY_LIMIT_BYTES} bytes (64 kB), the most this sandbox accepts`,
    };
  if (typeof status === 'number' && status >= 400 && status < 500)
    return { status, message: (error as Error).message || 'bad request' };
  return undefined;
}
