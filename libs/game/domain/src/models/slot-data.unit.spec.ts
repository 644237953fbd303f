import { describe, expect, it } from '@jest/globals';
import { ModelError } from '../model-error.js';
import data from './neon-fruits.json' with { type: 'json' };
import { firstPaylines } from './paylines.js';
import { slotModelOf, type SlotModelData } from './slot-data.js';

describe('slotModelOf (a slot model from its data file)', () => {
  it('keeps the data, marks it a slot, and plays the first paylines the file counts', () => {
    const model = slotModelOf(data);
    expect(model.kind).toBe('slot');
    expect(model.paylines).toEqual(firstPaylines(10));
    expect(model.paylines).toHaveLength(10);
    expect(model.symbols[0]).toEqual({ code: 'W', name: 'Neon Wild', role: 'wild' });
    expect(model.linePays['C']).toEqual({ 2: 2, 3: 6, 4: 15, 5: 60 });
    expect(model.profiles.streamer.reels).toEqual(data.profiles.streamer.reels);
  });

  it.each([
    [
      'a role the engine does not know',
      { ...data, symbols: [{ code: 'W', name: 'Wild', role: 'joker' }] },
      /unknown role joker/,
    ],
    ['a line count that is not 10, 20 or 25', { ...data, paylines: 15 }, /paylines must be one of 10, 20, 25, not 15/],
  ])('refuses %s', (_, bad: SlotModelData, message) => {
    expect(() => slotModelOf(bad)).toThrow(ModelError);
    expect(() => slotModelOf(bad)).toThrow(message);
  });
});
