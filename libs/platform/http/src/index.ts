/**
 * @reelstream/http: what the services' HTTP APIs share — the API error as a value, the error
 * envelope with the catalogue's statuses (DESIGN D16), the express error handler, the HTTP
 * server with request time limits, and a graceful close.
 */
export { ApiError, isApiError } from './api-error.js';
export { sendApiError, answeredErrorCode } from './send-api-error.js';
export { apiErrorHandler, classifyHttpError, routeNotFound, type ApiErrorHandlerOptions } from './error-handler.js';
export { closeGracefully, reachableUrl } from './graceful-close.js';
export { createHttpServer, DEFAULT_HTTP_TIMEOUTS, type HttpServerTimeouts } from './http-server.js';
