import { describe, expect, it } from '@jest/globals';
import { profileForSession, profiles } from '@reelstream/game-domain';

describe('math profile of a session', () => {
  it('plays isStreamer sessions on the streamer profile and every other session on the standard one', () => {
    expect(profileForSession(true)).toBe('streamer');
    expect(profileForSession(false)).toBe('standard');
    expect(profiles).toEqual(['standard', 'streamer']);
  });
});
