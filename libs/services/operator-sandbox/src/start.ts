/**
 * startOperatorSandbox: the reference operator wallet as an HTTP server — `POST /wallet/:operatorId`
 * (the callback URL), the admin API, `/healthz` and `/readyz` — on its own SQLite file.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import type { OperatorConfig } from '@reelstream/contracts';
import type { Clock } from '@reelstream/ports';
import { adminRouter } from './admin-routes.js';
import type { OperatorSandboxConfig } from './config.js';
import { Delays } from './delays.js';
import { FaultRegistry } from './faults.js';
import { LedgerViews } from './ledger-views.js';
import { openSandboxDatabase } from './wallet-database.js';
import { SandboxWallet } from './wallet-ledger.js';
import { walletRouter } from './wallet-route.js';

export interface OperatorSandboxDeps {
  operators: { get(id: string): OperatorConfig | undefined };
  clock?: Clock;
  logger?: { info(msg: string, fields?: Record<string, unknown>): void; error(msg: string, fields?: Record<string, unknown>): void };
}

export interface OperatorSandbox {
  /** `http://host:port`; the callback URL of operator X is `${url}/wallet/X`. */
  readonly url: string;
  readonly port: number;
  readonly wallet: SandboxWallet;
  readonly views: LedgerViews;
  readonly faults: FaultRegistry;
  stop(): Promise<void>;
}

export async function startOperatorSandbox(deps: OperatorSandboxDeps, config: OperatorSandboxConfig): Promise<OperatorSandbox> {
  const now = () => (deps.clock?.now() ?? new Date()).toISOString();
  const db = openSandboxDatabase(config.databasePath, { synchronous: config.synchronous });
  const wallet = new SandboxWallet(db, { autoCreateBalance: config.autoCreateBalance, defaultCurrency: (id) => deps.operators.get(id)?.currency, now });
  const views = new LedgerViews(db, now);
  const faults = new FaultRegistry();
  const delays = new Delays();
  if (config.latencyMs > 0) faults.add({ latencyMs: config.latencyMs });

  const app = express();
  app.disable('x-powered-by');
  app.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/readyz', (_req, res) => {
    try {
      db.prepare('SELECT 1').get();
      res.json({ status: 'ready' });
    } catch (error) {
      res.status(503).json({ status: 'unavailable', error: (error as Error).message });
    }
  });
  app.use(walletRouter({ operators: deps.operators, wallet, views, faults, delays, nowMs: () => (deps.clock?.now() ?? new Date()).getTime() }));
  app.use(adminRouter({ views, faults, adminToken: config.adminToken }));
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    deps.logger?.error('sandbox request failed', { error });
    if (!res.headersSent) res.status(500).json({ balance: 0, statusCode: 'ERR_UNKNOWN', message: 'internal error' });
  });

  const server: Server = await new Promise((resolve, reject) => {
    const listening = app.listen(config.port, config.host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  server.keepAliveTimeout = 60_000;
  const port = (server.address() as AddressInfo).port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  deps.logger?.info('operator sandbox listening', { port, database: config.databasePath });

  let stopping: Promise<void> | undefined;
  return {
    url: `http://${host}:${port}`,
    port,
    wallet,
    views,
    faults,
    stop() {
      stopping ??= (async () => {
        delays.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        db.close();
      })();
      return stopping;
    },
  };
}
