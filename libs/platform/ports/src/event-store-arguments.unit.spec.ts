import { describe, expect, it } from '@jest/globals';
import { appendRequestOf, categoryOf } from './event-store-arguments.js';

const ids = () => '00000000-0000-4000-8000-000000000001';

describe('categoryOf', () => {
  it.each([
    ['round-123', 'round-'],
    ['playerBonus-op-p1', 'playerBonus-'],
    ['round-', 'round-'],
    ['nocategory', ''],
  ])('%s is in category %j', (streamId, category) => expect(categoryOf(streamId)).toBe(category));
});

describe('appendRequestOf', () => {
  it('names the category, keeps the expected revision and serialises each event, drawing an id where none is given', () => {
    const own = 'AAAAAAAA-0000-4000-8000-00000000000B';
    expect(
      appendRequestOf(
        'round-1',
        [
          { type: 'A', data: { n: 1 } },
          { type: 'B', data: [], eventId: own },
        ],
        4,
        ids,
      ),
    ).toEqual({
      streamId: 'round-1',
      category: 'round-',
      expected: 4,
      events: [
        { eventId: ids(), type: 'A', data: '{"n":1}', metadata: '{}' },
        { eventId: own.toLowerCase(), type: 'B', data: '[]', metadata: '{}' },
      ],
    });
  });

  it.each([
    ['an empty stream id', '', 'any', { type: 'A', data: {} }, 'stream id must be a non-empty string'],
    ['a negative revision', 'round-1', -1, { type: 'A', data: {} }, 'invalid expected revision -1'],
    ['an event id that is not a UUID', 'round-1', 'any', { type: 'A', data: {}, eventId: 'x' }, 'must be a UUID'],
    ['data JSON cannot hold', 'round-1', 'any', { type: 'A', data: undefined }, 'no JSON-serialisable data'],
  ] as const)('refuses %s with a TypeError', (_, streamId, expected, event, message) => {
    expect(() => appendRequestOf(streamId, [event], expected, ids)).toThrow(TypeError);
    expect(() => appendRequestOf(streamId, [event], expected, ids)).toThrow(message);
  });
});
