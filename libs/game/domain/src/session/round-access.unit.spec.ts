import { describe, expect, it } from '@jest/globals';
import { roundVisibleTo, spinnerRefusal } from './round-access.js';

describe('which rounds a session may see (D18)', () => {
  const session = { operatorId: 'casino-a', playerId: 'p1' };

  it('shows its own player’s rounds', () => {
    expect(roundVisibleTo({ operatorId: 'casino-a', playerId: 'p1' }, session)).toBe(true);
  });

  it('hides another player’s rounds and the same playerId of another operator', () => {
    expect(roundVisibleTo({ operatorId: 'casino-a', playerId: 'p2' }, session)).toBe(false);
    expect(roundVisibleTo({ operatorId: 'casino-b', playerId: 'p1' }, session)).toBe(false);
  });
});

describe('who may spin in a session (D23)', () => {
  const session = { operatorId: 'casino-a', playerId: 'p1' };

  it('lets a spin name no player or the session’s own', () => {
    expect(spinnerRefusal(session, undefined)).toBeUndefined();
    expect(spinnerRefusal(session, 'p1')).toBeUndefined();
  });

  it('refuses a spin naming another player with FORBIDDEN', () => {
    expect(spinnerRefusal(session, 'p2')).toStrictEqual({
      type: 'Refusal',
      code: 'FORBIDDEN',
      message: 'This game session belongs to another player.',
      retriable: false,
    });
  });
});
