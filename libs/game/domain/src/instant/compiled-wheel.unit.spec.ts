import { describe, expect, it } from '@jest/globals';
import { ModelError } from '../model-error.js';
import type { Profile } from '../profile.js';
import { compileWheel } from './compiled-wheel.js';
import type { InstantModel } from './instant-model.js';

type Segments = InstantModel['profiles'][Profile]['segments'];

/** A fresh wheel each call (models are validated once per object), with one profile's settings replaced. */
function wheel(
  change: { coinsPerBet?: number; profile?: Profile; targetRtp?: number; segments?: Segments } = {},
): InstantModel {
  const fair = { targetRtp: 0.96, segments: [{ weight: 1, multiplierCoins: 0 }] };
  const changed = {
    targetRtp: change.targetRtp ?? fair.targetRtp,
    segments: change.segments ?? fair.segments,
  };
  const changedProfile = change.profile ?? 'standard';
  return {
    kind: 'instant',
    id: 'w',
    name: 'Wheel',
    coinsPerBet: change.coinsPerBet ?? 1,
    profiles: {
      standard: changedProfile === 'standard' ? changed : fair,
      streamer: changedProfile === 'streamer' ? changed : fair,
    },
  };
}

function refusalOf(model: InstantModel): unknown {
  try {
    compileWheel(model, 'standard');
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('compiled wheel', () => {
  it('refuses a model it cannot play, naming the model, the profile and the rule', () => {
    const cases: [InstantModel, string][] = [
      [wheel({ coinsPerBet: 0 }), 'coinsPerBet must be a positive integer'],
      [wheel({ coinsPerBet: 1.5 }), 'coinsPerBet must be a positive integer'],
      [wheel({ targetRtp: 0 }), 'standard target RTP must be positive'],
      [wheel({ targetRtp: Number.NaN, profile: 'streamer' }), 'streamer target RTP must be positive'],
      [wheel({ segments: [] }), 'standard wheel has no segments'],
      [wheel({ segments: [{ weight: 0, multiplierCoins: 1 }] }), 'standard segment weights must be positive integers'],
      [
        wheel({ segments: [{ weight: 1.5, multiplierCoins: 1 }] }),
        'standard segment weights must be positive integers',
      ],
      [
        wheel({ segments: [{ weight: 1, multiplierCoins: -1 }], profile: 'streamer' }),
        'streamer segment pays must be non-negative integers',
      ],
      [
        wheel({ segments: [{ weight: 1, multiplierCoins: 0.5 }] }),
        'standard segment pays must be non-negative integers',
      ],
      [
        wheel({
          segments: [
            { weight: 2 ** 32, multiplierCoins: 0 },
            { weight: 1, multiplierCoins: 0 },
          ],
        }),
        'standard wheel weights exceed 2^32',
      ],
    ];
    for (const [model, problem] of cases) {
      const refusal = refusalOf(model);
      expect(refusal).toBeInstanceOf(ModelError);
      expect(refusal).toMatchObject({ name: 'ModelError', modelId: 'w', message: `model "w": ${problem}` });
    }
  });

  it('accepts the edges of every rule: one coin per bet, a segment of weight 1 that pays nothing, weights of 2^32 in all', () => {
    expect(refusalOf(wheel())).toBeUndefined();
    const largest = wheel({ segments: [{ weight: 2 ** 32, multiplierCoins: 0 }] });
    expect(compileWheel(largest, 'standard').totalWeight).toBe(2 ** 32);
  });

  it('compiles a profile once and hands the same tables to every round', () => {
    const model = wheel({
      segments: [
        { weight: 3, multiplierCoins: 2 },
        { weight: 5, multiplierCoins: 0 },
      ],
    });
    const standard = compileWheel(model, 'standard');
    expect(compileWheel(model, 'standard')).toBe(standard);
    expect(compileWheel(model, 'streamer')).not.toBe(standard);
    expect(Array.from(standard.upperBounds)).toEqual([3, 8]);
  });
});
