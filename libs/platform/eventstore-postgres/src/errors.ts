import { ReelstreamError } from '@reelstream/contracts';

/** Shared by the stores that keep event ids unique across the store: the port's. */
export { DuplicateEventIdError } from '@reelstream/platform-ports';

/** The store was closed: no more appends, reads or subscriptions. */
export class EventStoreClosedError extends ReelstreamError {
  override readonly name = 'EventStoreClosedError';
  constructor(address: string) {
    super('SERVICE_UNAVAILABLE', `event store ${address} is closed`, { retriable: true });
  }
}

/**
 * The server (or the pooler in front of it) could not be reached, or dropped the connection: when the
 * store was opened, or under a call. Retriable: the pool opens new connections for the next call.
 */
export class PostgresUnreachableError extends ReelstreamError {
  override readonly name = 'PostgresUnreachableError';
  constructor(address: string, cause: unknown) {
    super(
      'SERVICE_UNAVAILABLE',
      `cannot reach PostgreSQL at ${address}: ${cause instanceof Error ? cause.message : String(cause)}`,
      { retriable: true, cause },
    );
  }
}

/** Node's socket errors of a connection refused, reset, broken or not resolved. */
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * SQLSTATEs of a lost or refused connection: class 08 (connection exception), the server shutting down or
 * restarting (57P01–57P03), too many connections (53300).
 */
const CONNECTION_STATES = /^(08...|57P0[123]|53300)$/;
/** What the `pg` client says of a connection it lost or could not open, without a code. */
const CLIENT_MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect/;

/** A failure of the connection, not of the statement: another connection may well succeed. */
export function isConnectionFailure(error: unknown): boolean {
  // Not `instanceof Error`: a socket error is made by Node itself, in another realm than a vm context's.
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || CONNECTION_STATES.test(code))) return true;
  return code === undefined && typeof message === 'string' && CLIENT_MESSAGES.test(message);
}

/** Runs `call`; a connection failure comes out as the retriable PostgresUnreachableError, anything else as it was. */
export async function reaching<T>(address: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw isConnectionFailure(error) ? new PostgresUnreachableError(address, error) : error;
  }
}
