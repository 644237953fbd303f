import type { Database, Statement } from 'better-sqlite3';

type Wake = () => void;

/**
 * In-process commit notifications, shared by every store instance of this process that opened
 * the same file: an append wakes their subscribers at once, without polling.
 */
const listenersByFile = new Map<string, Set<Wake>>();

export function notifyCommit(fileKey: string): void {
  const listeners = listenersByFile.get(fileKey);
  if (listeners) for (const wake of [...listeners]) wake();
}

function listen(fileKey: string, wake: Wake): () => void {
  let listeners = listenersByFile.get(fileKey);
  if (!listeners) listenersByFile.set(fileKey, (listeners = new Set()));
  listeners.add(wake);
  return () => {
    listeners.delete(wake);
    if (listeners.size === 0) listenersByFile.delete(fileKey);
  };
}

/**
 * What a subscription saw before it read: the file's `PRAGMA data_version` (moved by other
 * connections' commits) and how many commits of this process were notified (the data version of a
 * connection does not move for its own commits).
 */
export interface FeedVersion {
  readonly dataVersion: number;
  readonly commits: number;
}

interface Waiter {
  since: FeedVersion;
  wake: Wake;
}

/**
 * Tells waiting subscriptions that new events may have been committed. Commits of this process
 * arrive through `notifyCommit`; commits of other processes are found by polling
 * `PRAGMA data_version`, which changes whenever another connection committed to the file and
 * costs no table read. The poll timer runs only while a subscription is waiting. A commit of this
 * process notified while nobody waited (the subscriber was busy with what it read) is counted, so
 * a `wait` from a version taken before it returns at once instead of waiting for the next commit.
 */
export class ChangeFeed {
  private readonly dataVersion: Statement<[], number>;
  private readonly waiters = new Set<Waiter>();
  private readonly unlisten: () => void;
  private timer: NodeJS.Timeout | undefined;
  private commits = 0;

  constructor(
    db: Database,
    fileKey: string,
    private readonly pollIntervalMs: number,
  ) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.unlisten = listen(fileKey, () => {
      this.commits += 1;
      this.wakeAll();
    });
  }

  /** A token to take before reading, so a commit between the read and `wait` is not missed. */
  version(): FeedVersion {
    return { dataVersion: this.dataVersion.get() ?? 0, commits: this.commits };
  }

  /** Resolves on the next commit after `since` (at once if there was one already); `cancel` resolves it early (used by close). */
  wait(since: FeedVersion): { promise: Promise<void>; cancel: () => void } {
    if (since.commits !== this.commits) return { promise: Promise.resolve(), cancel: () => undefined };
    let waiter!: Waiter;
    const promise = new Promise<void>((resolve) => {
      waiter = {
        since,
        wake: () => {
          this.waiters.delete(waiter);
          resolve();
        },
      };
    });
    this.waiters.add(waiter);
    this.schedulePoll();
    return { promise, cancel: waiter.wake };
  }

  close(): void {
    this.unlisten();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.wakeAll();
  }

  private wakeAll(): void {
    for (const waiter of [...this.waiters]) waiter.wake();
  }

  private schedulePoll(): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      if (this.waiters.size === 0) return;
      const { dataVersion } = this.version();
      for (const waiter of [...this.waiters]) if (waiter.since.dataVersion !== dataVersion) waiter.wake();
      if (this.waiters.size > 0) this.schedulePoll();
    }, this.pollIntervalMs);
  }
}
