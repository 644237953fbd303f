import { describe, expect, it } from '@jest/globals';
import { sendWithinMs } from '../src/index.js';
import { bet, win } from './fixtures.js';

describe('sendWithinMs: how long a bet may still wait before its call starts', () => {
  it('its window left less the 250 ms the call needs; none for a win', () => {
    const due = { ...bet, deadline: '2026-05-01T10:00:03.000Z' };
    expect(sendWithinMs(due, '2026-05-01T10:00:02.000Z')).toBe(750);
    expect(sendWithinMs(due, '2026-05-01T10:00:02.900Z')).toBe(-150);
    expect(sendWithinMs(win, '2026-05-01T10:00:02.000Z')).toBeUndefined();
  });
});
