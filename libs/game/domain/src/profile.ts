/**
 * Every game has two math profiles: `standard` for ordinary sessions, and `streamer` for
 * sessions launched with isStreamer = true, which the specification allows to return more than
 * 100 % (spec §2.3).
 */
export const profiles = ['standard', 'streamer'] as const;
export type Profile = (typeof profiles)[number];

export function profileForSession(isStreamer: boolean): Profile {
  return isStreamer ? 'streamer' : 'standard';
}
