import type { Clock } from '@reelstream/platform-ports';

/** Real time, moved forward on demand: the rest of the stack keeps real timers while one service sees the future. */
export class ShiftedClock implements Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  advance(ms: number): void {
    this.offsetMs += ms;
  }
}
