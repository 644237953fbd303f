import type { Position } from '@reelstream/platform-ports';
import { ReelstreamError } from '@reelstream/contracts';

/**
 * A position of the PostgreSQL store: `<transaction id>:<sequence>`, both non-negative decimals.
 * Events order by the id of the transaction that wrote them (`pg_current_xact_id()`), then by the
 * sequence that numbered them inside it; readers only see transactions below the oldest one still
 * running, so nothing can later commit before a position a reader has passed
 * (docs/adr/0018-postgres-event-store-positions.md).
 */
export interface PostgresPosition {
  readonly transactionId: bigint;
  readonly sequence: bigint;
}

const FORMAT = /^(0|[1-9][0-9]*):(0|[1-9][0-9]*)$/;

/** Not retriable: the position was not written by this store. */
class NotAPostgresPositionError extends ReelstreamError {
  override readonly name = 'NotAPostgresPositionError';
  constructor(readonly position: unknown) {
    super(
      'INTERNAL',
      `not a position of the PostgreSQL event store (<transaction>:<sequence>): ${JSON.stringify(position)}`,
      { retriable: false },
    );
  }
}

export function parsePostgresPosition(position: Position): PostgresPosition {
  const match = typeof position === 'string' ? FORMAT.exec(position) : null;
  if (!match?.[1] || !match[2]) throw new NotAPostgresPositionError(position);
  return { transactionId: BigInt(match[1]), sequence: BigInt(match[2]) };
}

export function formatPostgresPosition(transactionId: string | bigint, sequence: string | bigint): Position {
  return `${transactionId}:${sequence}`;
}

/** Before every event: what a subscription from 'start' reads after. */
export const BEFORE_ALL: PostgresPosition = { transactionId: 0n, sequence: 0n };

/** True when `a` comes after `b`. */
export const isAfterPostgresPosition = (a: PostgresPosition, b: PostgresPosition): boolean =>
  a.transactionId > b.transactionId || (a.transactionId === b.transactionId && a.sequence > b.sequence);

export function comparePostgresPositions(a: Position, b: Position): number {
  const left = parsePostgresPosition(a);
  const right = parsePostgresPosition(b);
  if (left.transactionId !== right.transactionId) return left.transactionId < right.transactionId ? -1 : 1;
  if (left.sequence !== right.sequence) return left.sequence < right.sequence ? -1 : 1;
  return 0;
}
