/**
 * @reelstream/platform-http: what the services' HTTP APIs share — the one HTTP answer of a refusal,
 * the error envelope with the catalogue's statuses (decisions.md D16), the express error handler, the
 * HTTP server with request time limits, the defaults every public Express app starts from, the access log
 * (pino-http), a graceful close, the health endpoints and the draining signal they report, the stop
 * sequence every service start function uses, and the token-bucket rate limits (per operator, per
 * player, per client address) with their 429 answer.
 */
export { answeredErrorCode } from './send-refusal.js';
export { apiErrorHandler, routeNotFound } from './error-handler.js';
export { closeGracefully, reachableUrl } from './graceful-close.js';
export { createHttpServer, DEFAULT_HTTP_TIMEOUTS } from './http-server.js';
export { withPlatformDefaults } from './express-app.js';
export { requestLog } from './request-log.js';
export { healthEndpoints, startHealthServer, type HealthServer, type Readiness } from './health.js';
export { DataDirs, processDataDirs } from './data-dirs.js';
export { DrainSignal, processDrain } from './drain-signal.js';
export { pageContentSecurityPolicy } from './page-policy.js';
export { StopSequence, stopWithDrain } from './stop-sequence.js';
export { clientAddressKey, refuseOverLimit, TokenBucketLimiter, type RateLimitConfig } from './rate-limit.js';
