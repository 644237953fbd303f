/** Injected latencies that a stopping server can cut short, so `stop()` never waits for a 3 s fault. */
export class Delays {
  private readonly pending = new Map<NodeJS.Timeout, () => void>();
  private stopped = false;

  get isStopped(): boolean {
    return this.stopped;
  }

  wait(ms: number): Promise<void> {
    if (ms <= 0 || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending.delete(timer);
        resolve();
      }, ms);
      this.pending.set(timer, resolve);
    });
  }

  stop(): void {
    this.stopped = true;
    for (const [timer, resolve] of this.pending) {
      clearTimeout(timer);
      resolve();
    }
    this.pending.clear();
  }
}
