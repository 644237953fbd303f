import { describe, it } from '@jest/globals';
import type { BonusRequestAccepted } from '@reelstream/contracts';
import { deciderSpecification } from '@reelstream/testing';
import { registrationGuardDecider, type Reservation } from '../src/index.js';

const spec = deciderSpecification(registrationGuardDecider);

const reservation: Reservation = {
  issueId: 7,
  requestHash: 'a'.repeat(64),
  playerId: 'player_42',
  acceptedAt: '2026-05-01T10:00:00.000Z',
};
const accepted = (data: Reservation): BonusRequestAccepted => ({ type: 'BonusRequestAccepted', data });
const reserve = (data: Reservation) => ({ type: 'ReserveRequest' as const, data });

describe('registrationGuardDecider: a platformId is reserved once (D17)', () => {
  it('reserves a platformId nobody has reserved', () => {
    spec
      .given([])
      .when(reserve(reservation))
      .then([accepted(reservation)]);
  });

  it('takes the same reservation again as already made (a retried append)', () => {
    spec
      .given([accepted(reservation)])
      .when(reserve({ ...reservation, acceptedAt: '2026-05-01T10:00:01.000Z' }))
      .thenNothing();
  });

  it('refuses another reservation with the one that stands: another issueId, body or player', () => {
    for (const other of [
      { ...reservation, issueId: 8 },
      { ...reservation, requestHash: 'b'.repeat(64) },
      { ...reservation, playerId: 'player_43' },
    ])
      spec
        .given([accepted(reservation)])
        .when(reserve(other))
        .thenFails({ type: 'ReservationTaken', reservation });
  });

  it('keeps the first reservation if a stream ever held two', () => {
    const second = { ...reservation, issueId: 8 };
    spec
      .given([accepted(reservation), accepted(second)])
      .when(reserve(second))
      .thenFails({ reservation });
  });
});
