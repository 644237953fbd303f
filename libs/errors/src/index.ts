export {
  ErrorCatalogue,
  ERROR_CODES,
  isErrorCode,
  httpStatusOf,
  defaultMessageOf,
  type ErrorCode,
  type ErrorDetail,
} from './catalogue.js';
export {
  refusal,
  isRefusal,
  isRefusedError,
  isRetriable,
  type Refusal,
  ReelstreamError,
  RefusedError,
} from './reelstream-error.js';
