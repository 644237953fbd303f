/**
 * @reelstream/service-gateway: the operator API v1 — auth, validation, commands to the
 * bonus-ledger over the bus, game launch, catalog, OpenAPI and docs.
 */
export { createGatewayApp, type GatewayDeps } from './app.js';
export { startGateway, type GatewayPorts, type RunningGateway } from './start.js';
export {
  gatewayEnv,
  parseGatewayEnv,
  gatewayConfigOf,
  loadGatewayOperators,
  DEFAULT_SESSION_TTL_MS,
  DEFAULT_LEDGER_TIMEOUT_MS,
  DEFAULT_BODY_LIMIT_BYTES,
  type GatewayEnv,
  type GatewayConfig,
  type RateLimitConfig,
} from './config/gateway-env.js';
export { parseDurationMs } from './config/duration.js';
export { CatalogView, betLevelsIn } from './catalog/catalog-view.js';
export {
  generateOpenApi,
  errorCodesOf,
  LEDGER_OPERATIONS,
  type OpenApiDocument,
  type GeneratedOpenApi,
  type OperationName,
} from './openapi/openapi-document.js';
export { TokenBucketLimiter, type RateDecision } from './http/rate-limit.js';
export { ApiError } from '@reelstream/http';
// Shared (@reelstream/contracts); re-exported under the name importers know.
export { canonicalJson } from '@reelstream/contracts';
export { newSessionToken } from './launch/start-session.js';
