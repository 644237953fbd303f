import { describe, expect, it } from '@jest/globals';
import { gameRefusal, isGameRefusal } from '@reelstream/game-domain';

describe('a refused game command', () => {
  it('is not retriable and has no retryAfterSeconds when no retry time is given', () => {
    const refused = gameRefusal('SESSION_NOT_FOUND');
    expect(refused).toStrictEqual({
      type: 'Refusal',
      code: 'SESSION_NOT_FOUND',
      message: 'No game session with this token exists.',
      retriable: false,
    });
    expect(Object.keys(refused)).not.toContain('retryAfterSeconds');
  });

  it('keeps its own message and details', () => {
    expect(
      gameRefusal('GAME_NOT_FOUND', 'Game 7 is no longer offered.', [{ path: 'gameId', message: 'gone' }]),
    ).toStrictEqual({
      type: 'Refusal',
      code: 'GAME_NOT_FOUND',
      message: 'Game 7 is no longer offered.',
      details: [{ path: 'gameId', message: 'gone' }],
      retriable: false,
    });
  });

  it('is retriable and says when to retry when a retry time is given', () => {
    const refused = gameRefusal('SERVICE_UNAVAILABLE', 'Try again in a moment.', undefined, 2);
    expect(refused).toStrictEqual({
      type: 'Refusal',
      code: 'SERVICE_UNAVAILABLE',
      message: 'Try again in a moment.',
      retriable: true,
      retryAfterSeconds: 2,
    });
    expect(isGameRefusal(refused)).toBe(true);
    expect(isGameRefusal({ code: 'SERVICE_UNAVAILABLE' })).toBe(false);
  });
});
