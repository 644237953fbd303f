/**
 * The progress line of a long replay, on stderr and only on a terminal: events read, events/s,
 * and a bar when the store's positions are plain numbers (the SQLite file's), whose last one
 * gives the total. Redrawn at most every 100 ms.
 */
import type { ReplayProgress } from '@reelstream/analytics-application';

const WIDTH = 30;

export class ProgressBar {
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly lastPosition: string | undefined,
  ) {}

  update(progress: ReplayProgress, force = false): void {
    if (!this.stream.isTTY) return;
    const now = performance.now();
    if (!force && now - this.lastDraw < 100) return;
    this.lastDraw = now;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = Math.round(progress.events / seconds);
    const bar = this.bar(progress.position);
    this.stream.write(
      `\r${bar}${progress.events.toLocaleString('en')} events  ${rate.toLocaleString('en')} events/s  `,
    );
    this.drawn = true;
  }

  done(): void {
    if (this.drawn) this.stream.write('\n');
  }

  private bar(position: string | undefined): string {
    if (position === undefined || this.lastPosition === undefined) return '';
    if (!/^\d+$/.test(position) || !/^\d+$/.test(this.lastPosition)) return '';
    const fraction = Math.min(1, Number(position) / Math.max(1, Number(this.lastPosition)));
    const full = Math.round(fraction * WIDTH);
    return `[${'#'.repeat(full)}${'.'.repeat(WIDTH - full)}] ${String(Math.round(fraction * 100)).padStart(3)}%  `;
  }
}
