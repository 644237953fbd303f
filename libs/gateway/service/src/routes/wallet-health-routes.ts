/**
 * `GET /v1/wallet/health`: the calling operator's callbacks of the last hour and day, per command
 * (docs/adr/0022-operator-console-and-wallet-health.md). Read from the event log like the
 * reconciliation API; another operator's callbacks are never counted.
 */
import { ApiOperations } from '@reelstream/contracts';
import type { Clock, EventStore } from '@reelstream/platform-ports';
import type { Express } from 'express';
import { callerOf } from '../http/request-context.js';
import { sendOk } from '../http/respond.js';
import { WalletHealthReader } from '../wallet-health/wallet-health.js';
import { expressPath } from './bonus-call-routes.js';

export function walletHealthRoutes(app: Express, deps: { store: EventStore; clock: Clock }): void {
  const reader = new WalletHealthReader(deps.store);
  app.get(expressPath(ApiOperations.getWalletHealth.path), async (_req, res) => {
    sendOk(res, await reader.health(callerOf(res).id, deps.clock.now()));
  });
}
