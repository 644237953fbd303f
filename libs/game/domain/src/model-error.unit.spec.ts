import { describe, expect, it } from '@jest/globals';
import { ReelstreamError, BetLevelError } from '@reelstream/contracts';
import { tryParseAmount } from '@reelstream/money';
import {
  InvariantError,
  ModelError,
  RngRangeError,
  UnknownModelError,
  assertDrawBound,
  playRound,
  createSeededRng,
} from '@reelstream/game-domain';

/** The game's errors in the one family: a catalogue code and whether trying again may pass. */
describe("the game domain's errors", () => {
  it('a model that cannot be played is a configuration fault, not retriable', () => {
    const error = new ModelError('neon-fruits', 'no reel');
    expect(error).toBeInstanceOf(ReelstreamError);
    expect(error).toMatchObject({
      name: 'ModelError',
      code: 'CONFIGURATION_INVALID',
      retriable: false,
      modelId: 'neon-fruits',
      message: 'model "neon-fruits": no reel',
    });
  });

  it('a model id this release lacks is a configuration fault too', () => {
    expect(() =>
      playRound({ model: 'no-such-game', profile: 'standard', betMinor: 100, rng: createSeededRng(1) }),
    ).toThrow(
      expect.objectContaining({
        name: 'UnknownModelError',
        code: 'CONFIGURATION_INVALID',
        retriable: false,
        modelId: 'no-such-game',
        message: 'no game model with id "no-such-game"',
      }) as unknown as Error,
    );
    expect(new UnknownModelError('x')).toBeInstanceOf(ReelstreamError);
  });

  it('a bet level the currency cannot express is a configuration fault, with the amount error as its cause', () => {
    const parsed = tryParseAmount(0.2, 'KRW');
    if (parsed.ok) throw new Error('KRW has no decimals');
    const error = new BetLevelError(101, 'KRW', 0.2, parsed.error);
    expect(error).toMatchObject({ name: 'BetLevelError', code: 'CONFIGURATION_INVALID', retriable: false });
    expect(error.cause).toBe(parsed.error);
    expect(error.message).toBe(
      `bet level 0.2 of game 101 cannot be expressed in KRW (0 decimals): ${parsed.error.message}`,
    );
  });

  it("a broken caller's rule is an internal error, not retriable; a draw bound out of range is one", () => {
    expect(new InvariantError('x')).toMatchObject({
      name: 'InvariantError',
      code: 'INTERNAL',
      retriable: false,
      message: 'x',
    });
    expect(() => assertDrawBound(0)).toThrow(RngRangeError);
    const error = new RngRangeError(0);
    expect(error).toBeInstanceOf(InvariantError);
    expect(error).toMatchObject({ name: 'RngRangeError', code: 'INTERNAL', retriable: false, maxExclusive: 0 });
  });
});
