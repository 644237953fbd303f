/** RecentMap forgets an entry the log has not named for two horizons, keeps one named since. */
import { describe, expect, it } from '@jest/globals';
import { RecentMap } from './recent-map.js';

const HOUR = 3_600_000;

describe('RecentMap', () => {
  it('forgets after two horizons without a mention, remembers what was read in between', () => {
    const map = new RecentMap<string, number>(HOUR);
    map.advance(0);
    map.set('quiet', 1);
    map.set('busy', 2);
    map.advance(HOUR); // one horizon: both in the previous generation
    expect(map.size).toBe(2);
    expect(map.get('busy')).toBe(2); // read: back in the current one
    map.advance(2 * HOUR); // two horizons: 'quiet' dropped
    expect(map.get('quiet')).toBeUndefined();
    expect(map.get('busy')).toBe(2);
    expect(map.forgotten).toBe(1);
    map.delete('busy');
    expect(map.size).toBe(0);
  });

  it('keeps everything while the log clock stays within a horizon', () => {
    const map = new RecentMap<number, number>(HOUR);
    for (let i = 0; i < 1000; i++) {
      map.advance(i * 1000);
      map.set(i, i);
    }
    expect(map.size).toBe(1000);
    expect(map.forgotten).toBe(0);
  });
});
