/**
 * The `bonusRequest-{operatorId}-{platformId}` stream (docs/architecture.md "Data", D17) as a decider: one event
 * reserves a platformId for one request body (its hash), one player and one issueId. The same
 * reservation again is already done; any other is refused with the reservation that stands, so
 * the caller answers from it (a resend) or refuses the request (another body).
 */
import type { BonusRequestAccepted } from '@reelstream/contracts';

export type Reservation = BonusRequestAccepted['data'];

export interface ReserveRequest {
  readonly type: 'ReserveRequest';
  readonly data: Reservation;
}

/** The platformId is reserved already, by another request or another issueId. */
export interface ReservationTaken {
  readonly type: 'ReservationTaken';
  readonly reservation: Reservation;
}

/** The stream's state: its reservation, once made. */
export type RequestGuard = Reservation | null;

const sameReservation = (a: Reservation, b: Reservation) =>
  a.issueId === b.issueId && a.requestHash === b.requestHash && a.playerId === b.playerId;

export const registrationGuardDecider = {
  initialState: null as RequestGuard,
  decide(command: ReserveRequest, guard: RequestGuard): BonusRequestAccepted[] | ReservationTaken {
    if (guard === null) return [{ type: 'BonusRequestAccepted', data: command.data }];
    if (sameReservation(guard, command.data)) return [];
    return { type: 'ReservationTaken', reservation: guard };
  },
  // The first reservation stands: the stream holds one event, but a fold never lets a later one replace it.
  evolve: (guard: RequestGuard, event: BonusRequestAccepted): RequestGuard => guard ?? event.data,
} as const;
