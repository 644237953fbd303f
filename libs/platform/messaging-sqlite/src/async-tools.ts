/** A wake-up flag without lost wake-ups: read `version`, check for work, then `wait(version)`. */
export class Signal {
  private count = 0;
  private waiters: (() => void)[] = [];

  get version(): number {
    return this.count;
  }

  fire(): void {
    this.count += 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  wait(seenVersion: number): Promise<void> {
    if (seenVersion !== this.count) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

/** Resolves after `ms`, or earlier when `signal` fires. */
export async function sleepUnless(signal: Signal, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const seen = signal.version;
  await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), signal.wait(seen)]);
  clearTimeout(timer);
}

/** Limits how many partitions run a handler at the same moment. */
export class Semaphore {
  private available: number;
  private readonly queue: (() => void)[] = [];

  constructor(permits: number) {
    this.available = permits;
  }

  async acquire(): Promise<() => void> {
    if (this.available > 0) this.available -= 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.available += 1;
    };
  }
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
