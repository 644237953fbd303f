import { describe, expect, it } from '@jest/globals';
import { seeksForAssignment } from '../src/initial-offsets.js';

describe("'latest' start offsets", () => {
  const seeks = [
    { topic: 'bonus.replies', partition: 0, offset: '17' },
    { topic: 'bonus.replies', partition: 1, offset: '0' },
    { topic: 'wallet.replies', partition: 0, offset: '5' },
  ];

  it('seeks only the partitions this member was assigned', () => {
    expect(seeksForAssignment(seeks, { 'bonus.replies': [1], 'wallet.replies': [0, 1] })).toEqual([
      { topic: 'bonus.replies', partition: 1, offset: '0' },
      { topic: 'wallet.replies', partition: 0, offset: '5' },
    ]);
  });

  it('seeks nothing when the member owns no partition', () => {
    expect(seeksForAssignment(seeks, {})).toEqual([]);
  });
});
