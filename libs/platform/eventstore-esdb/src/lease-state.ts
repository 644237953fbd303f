/**
 * What the EventStoreDB lease store decides, apart from the client: every event of a
 * `lease-{name}` stream is the whole state of the name (owner, newest token, expiry, fenced
 * checkpoint), and every change appends the next state with the revision it was decided from as
 * the expected revision. One stream holds lease and checkpoint, so the token check and the
 * checkpoint write are one compare-and-set (EventStoreDB has no transaction across streams).
 */
import { FencedOutError, type Lease, type Position } from '@reelstream/platform-ports';
import { z } from 'zod';

export const LEASE_EVENT_TYPE = 'LeaseState';

export const leaseStateSchema = z.object({
  owner: z.string(),
  token: z.number().int().positive(),
  /** Epoch ms; 0 once released. */
  expiresAt: z.number().int().nonnegative(),
  position: z.string().optional(),
});

export type LeaseState = z.infer<typeof leaseStateSchema>;

/** The next state when `owner` may take the name now; undefined while another owner holds it. */
export function acquiredState(
  current: LeaseState | undefined,
  owner: string,
  ttlMs: number,
  now: number,
): LeaseState | undefined {
  if (current && current.owner !== owner && current.expiresAt > now) return undefined;
  return {
    owner,
    token: (current?.token ?? 0) + 1,
    expiresAt: now + ttlMs,
    ...(current?.position === undefined ? {} : { position: current.position }),
  };
}

/** The next state of a renewal; undefined when `lease` was replaced by a newer grant or released. */
export function renewedState(
  current: LeaseState | undefined,
  lease: Lease,
  ttlMs: number,
  now: number,
): LeaseState | undefined {
  if (!current || current.token !== lease.token || current.owner !== lease.owner || current.expiresAt === 0)
    return undefined;
  return { ...current, expiresAt: now + ttlMs };
}

/** The next state of a release; undefined when there is nothing of this lease to release. */
export function releasedState(current: LeaseState | undefined, lease: Lease): LeaseState | undefined {
  if (!current || current.token !== lease.token || current.expiresAt === 0) return undefined;
  return { ...current, expiresAt: 0 };
}

/**
 * The next state of a fenced checkpoint write: undefined when the position does not advance (a
 * checkpoint moves forwards only). Throws FencedOutError when a newer token was granted.
 */
export function checkpointedState(
  name: string,
  current: LeaseState | undefined,
  token: number,
  position: Position,
  advances: (current: Position | undefined, next: Position) => boolean,
): LeaseState | undefined {
  if (!current || current.token > token) throw new FencedOutError(name, token, current?.token);
  if (!advances(current.position, position)) return undefined;
  return { ...current, position };
}

export function leaseOf(name: string, state: LeaseState): Lease {
  return { name, owner: state.owner, token: state.token, expiresAt: state.expiresAt };
}
