import { describe, expect, it } from '@jest/globals';
import { bonusEventMessage } from './bonus-event-message.js';

const message = {
  eventId: '0f8fad5b-d9cb-469f-a165-70867728950e',
  streamId: 'playerBonus-demo-player_42',
  revision: 3,
  operatorId: 'demo',
  playerId: 'player_42',
  occurredAt: '2026-05-01T10:00:00.000Z',
  correlationId: 'req-1',
  causationId: 'cmd-1',
  event: {
    type: 'BonusCallCanceled',
    data: { issueId: 5, spinsForfeited: 7, totalWinMinor: 120, canceledAt: '2026-05-01T10:00:00.000Z' },
  },
};

describe('bonusEventMessage (bonus.events)', () => {
  it('carries a playerBonus event with its id, stream position and tenant', () => {
    expect(bonusEventMessage.parse(message)).toEqual(message);
  });

  it('refuses an event of another stream family, a missing event id and a negative revision', () => {
    expect(
      bonusEventMessage.safeParse({
        ...message,
        event: {
          type: 'BonusRequestAccepted',
          data: { issueId: 5, requestHash: 'f'.repeat(64), playerId: 'p', acceptedAt: message.occurredAt },
        },
      }).success,
    ).toBe(false);
    expect(bonusEventMessage.safeParse({ ...message, eventId: 'not-a-uuid' }).success).toBe(false);
    expect(bonusEventMessage.safeParse({ ...message, revision: -1 }).success).toBe(false);
  });
});
