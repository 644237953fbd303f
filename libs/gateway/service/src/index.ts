/**
 * @reelstream/gateway-service: the operator API v1 — auth, validation, commands to the
 * bonus-ledger over the bus, game launch, catalog, OpenAPI and docs.
 */
export { createGatewayApp } from './app.js';
export { startGateway, type RunningGateway } from './start.js';
export { gatewayEnv, gatewayConfigOf, loadGatewayOperators, type GatewayConfig } from './config/gateway-env.js';
export { errorCodesOf, type OperationName } from './openapi/openapi-document.js';
export { CAMPAIGN_BODY_LIMIT_BYTES } from './routes/campaign-routes.js';
// Shared (@reelstream/contracts); re-exported under the name importers know.
