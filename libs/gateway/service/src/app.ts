/**
 * The gateway's express application: the operator API v1 (docs/operator-guide.md; decisions
 * D13–D19 of docs/decisions.md) with its ports passed in, so tests and the all-in-one platform
 * wire real back ends without globals.
 */
import type { Catalog } from '@reelstream/contracts';
import type { OperatorDirectory } from '@reelstream/platform-config';
import { apiErrorHandler, requestLog, routeNotFound, withPlatformDefaults } from '@reelstream/platform-http';
import type { Clock, EventStore, IdGenerator, MessageBus } from '@reelstream/platform-ports';
import type { ReconciliationReadModels } from '@reelstream/wallet-application';
import { recordHttpRoute, type Logger } from '@reelstream/platform-telemetry';
import express, { type Express } from 'express';
import helmet from 'helmet';
import { BonusRegistrar } from './bonus/registrar.js';
import { CatalogView } from './catalog/catalog-view.js';
import type { GatewayConfig } from './config/gateway-env.js';
import { authMiddleware } from './http/auth.js';
import { jsonBody } from './http/json-body.js';
import { rateLimitMiddleware, unauthenticatedRateLimit } from './http/rate-limit.js';
import { requestContext } from './http/request-context.js';
import { requestIdMiddleware } from './http/request-id.js';
import { requestSpanMiddleware } from './http/request-span.js';
import { LedgerClient } from './ledger/ledger-client.js';
import { consoleRoutes } from './console/console-routes.js';
import { apiReferenceRoutes } from './openapi/api-reference.js';
import { generateOpenApi } from './openapi/openapi-document.js';
import { bonusCallRoutes } from './routes/bonus-call-routes.js';
import { CAMPAIGN_BODY_LIMIT_BYTES, campaignRoutes } from './routes/campaign-routes.js';
import { catalogRoutes } from './routes/catalog-routes.js';
import { healthRoutes, type Readiness } from './routes/health-routes.js';
import { launchRoutes } from './routes/launch-routes.js';
import { openReconciliationReads, type ReconciliationReads } from './reconciliation/reconciliation-reads.js';
import { reconciliationRoutes } from './routes/reconciliation-routes.js';
import { walletHealthRoutes } from './routes/wallet-health-routes.js';

/** A re-drive waits this long for the wallet-dispatcher (its three attempts at 4 s each, plus queueing). */
const DEFAULT_REDRIVE_TIMEOUT_MS = 30_000;

export interface GatewayDeps {
  bus: MessageBus;
  store: EventStore;
  operators: OperatorDirectory;
  catalog: Catalog;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  config: GatewayConfig;
  /** Whether to report ready; `startGateway` turns it off while draining. Default: always. */
  readiness?: Readiness;
  /**
   * The reconciliation lists' read model (`startGateway` opens it on `config.readModelFile`).
   * Without one, an in-memory one is opened on the first list request.
   */
  reconciliation?: ReconciliationReads;
  /** How a reconciliation read model is opened: the app passes the wallet adapters' `SqliteReconciliationReadModel`. */
  reconciliationReadModels: ReconciliationReadModels;
  /**
   * This pod's share of the operators' rate limits and campaign budgets, which are for all gateway pods
   * together (`startGateway` passes its `gateway` group's share). Default: the whole, one gateway alone.
   */
  limitShare?: () => number;
}

export function createGatewayApp(deps: GatewayDeps): Express {
  const { config, logger } = deps;
  const openApiJson = JSON.stringify(generateOpenApi().document);
  const unauthenticated = unauthenticatedRateLimit(config.unauthenticatedRateLimit, deps.clock);

  const app = withPlatformDefaults(express(), config.trustProxy);
  app.use(requestIdMiddleware());
  app.use(requestSpanMiddleware());
  app.use(recordHttpRoute());
  app.use(
    requestLog(logger, {
      requestIdOf: (res) => requestContext(res).requestId,
      fieldsOf: (res) => {
        const { operator } = requestContext(res);
        return operator === undefined ? {} : { operatorId: operator.id };
      },
    }),
  );
  // No upgrade-insecure-requests: behind TLS termination the docs page is served over http and
  // must still load its own scripts.
  app.use(helmet({ contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } } }));

  // What is outside /v1 (probes, the docs, unknown paths) takes no credentials: it counts by client address.
  // Under /v1 the operator's token decides (authMiddleware): a refused one counts by address too.
  app.use((req, _res, next) => {
    if (!/^\/v1(\/|$)/.test(req.path)) unauthenticated(req);
    next();
  });
  healthRoutes(app, deps.store, deps.readiness ?? { accepting: () => true });
  app.get('/openapi.json', (_req, res) => {
    res.type('application/json').send(openApiJson);
  });
  apiReferenceRoutes(app);
  consoleRoutes(app);

  app.use('/v1', (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  app.use(
    '/v1',
    authMiddleware(deps.operators, unauthenticated),
    rateLimitMiddleware(config.rateLimit, deps.clock, deps.limitShare ?? whole),
  );
  operatorApiRoutes(app, deps);

  app.use(routeNotFound());
  app.use(apiErrorHandler({ logger, requestIdOf: (res) => requestContext(res).requestId }));
  return app;
}

const whole = (): number => 1;

/** The routes of the operator API v1, each group with the ports it uses. */
function operatorApiRoutes(app: Express, deps: GatewayDeps): void {
  const { config, logger } = deps;
  const catalog = new CatalogView(deps.catalog);
  const ledger = new LedgerClient({
    bus: deps.bus,
    clock: deps.clock,
    ids: deps.ids,
    logger,
    timeoutMs: config.ledgerTimeoutMs,
  });
  const body = jsonBody(config.bodyLimitBytes);
  const registrar = new BonusRegistrar({
    store: deps.store,
    operators: deps.operators,
    catalog: catalog.lookup,
    clock: deps.clock,
    ids: deps.ids,
  });
  bonusCallRoutes(app, { registrar, ledger, catalog, clock: deps.clock, jsonBody: body });
  campaignRoutes(app, {
    store: deps.store,
    catalog,
    clock: deps.clock,
    jsonBody: jsonBody(Math.max(config.bodyLimitBytes, CAMPAIGN_BODY_LIMIT_BYTES)),
    limitShare: deps.limitShare ?? whole,
    ...(config.campaignRateLimit === undefined ? {} : { campaignRateLimit: config.campaignRateLimit }),
  });
  launchRoutes(app, {
    store: deps.store,
    catalog,
    clock: deps.clock,
    launchBaseUrl: config.launchBaseUrl,
    sessionTtlMs: config.sessionTtlMs,
    jsonBody: body,
  });
  catalogRoutes(app, catalog);
  let reconciliation = deps.reconciliation;
  reconciliationRoutes(app, {
    store: deps.store,
    bus: deps.bus,
    clock: deps.clock,
    logger,
    redriveTimeoutMs: config.redriveTimeoutMs ?? DEFAULT_REDRIVE_TIMEOUT_MS,
    operators: deps.operators,
    reads: () =>
      (reconciliation ??= openReconciliationReads({
        store: deps.store,
        readModels: deps.reconciliationReadModels,
        logger,
      })),
    ...(config.cursorSecret === undefined ? {} : { cursorSecret: config.cursorSecret }),
    ...(config.listRowBound === undefined ? {} : { listRowBound: config.listRowBound }),
  });
  walletHealthRoutes(app, { store: deps.store, clock: deps.clock });
}
