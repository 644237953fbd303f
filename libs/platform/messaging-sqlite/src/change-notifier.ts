import { resolve } from 'node:path';
import { openDatabase, type Db } from './database.js';

/** Topics that got new messages; `null` when unknown (another process wrote). */
export type LogListener = (topics: ReadonlySet<string> | null) => void;
export type GroupListener = (groupId: string) => void;

/**
 * One per database file per process, shared by every SqliteMessageBus on that file: a publish
 * wakes this process's consumers at once, and other processes' publishes are noticed by polling
 * `PRAGMA data_version` (changes only when another connection committed) and then the log's
 * highest id (heartbeats and commits do not wake anybody).
 */
export class ChangeNotifier {
  private readonly logListeners = new Set<LogListener>();
  private readonly groupListeners = new Set<GroupListener>();
  private readonly pollIntervals = new Map<object, number>();
  private watcher: { db: Db; timer: NodeJS.Timeout; intervalMs: number; poll: () => void } | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly path: string) {}

  announce(topics: ReadonlySet<string>): void {
    for (const listener of [...this.logListeners]) listener(topics);
  }

  announceGroupChange(groupId: string): void {
    for (const listener of [...this.groupListeners]) listener(groupId);
  }

  onGroupChange(listener: GroupListener): () => void {
    this.groupListeners.add(listener);
    return () => this.groupListeners.delete(listener);
  }

  /** Registers a consumer; polling for other processes' writes runs while any is registered. */
  async watch(owner: object, pollIntervalMs: number, listener: LogListener): Promise<() => void> {
    this.logListeners.add(listener);
    this.pollIntervals.set(owner, pollIntervalMs);
    await this.startWatcher();
    this.reschedule();
    return () => {
      this.logListeners.delete(listener);
      this.pollIntervals.delete(owner);
      this.reschedule();
    };
  }

  private async startWatcher(): Promise<void> {
    if (this.watcher) return;
    this.starting ??= (async () => {
      const db = await openDatabase(this.path, { readonly: true, synchronous: 'FULL', busyTimeoutMs: 5_000 });
      const maxId = db.prepare<[], number | null>('SELECT max(id) FROM bus_messages').pluck();
      const state = { db, dataVersion: db.pragma('data_version', { simple: true }), maxId: maxId.get() ?? 0 };
      const poll = (): void => {
        const version = db.pragma('data_version', { simple: true });
        if (version === state.dataVersion) return;
        state.dataVersion = version;
        const latest = maxId.get() ?? 0;
        if (latest === state.maxId) return;
        state.maxId = latest;
        for (const listener of [...this.logListeners]) listener(null);
      };
      this.watcher = { db, poll, intervalMs: 0, timer: setInterval(poll, 1_000) };
      this.reschedule();
    })().finally(() => {
      this.starting = undefined;
    });
    await this.starting;
  }

  /** Polls as often as the most demanding registered consumer asked. */
  private reschedule(): void {
    if (!this.watcher) return;
    if (this.pollIntervals.size === 0) {
      this.stopWatcher();
      return;
    }
    const intervalMs = Math.min(...this.pollIntervals.values());
    if (intervalMs === this.watcher.intervalMs) return;
    clearInterval(this.watcher.timer);
    this.watcher.intervalMs = intervalMs;
    this.watcher.timer = setInterval(this.watcher.poll, intervalMs);
  }

  private stopWatcher(): void {
    if (!this.watcher) return;
    clearInterval(this.watcher.timer);
    this.watcher.db.close();
    this.watcher = undefined;
  }
}

const notifiers = new Map<string, { notifier: ChangeNotifier; users: number }>();

export function acquireNotifier(path: string): ChangeNotifier {
  const key = resolve(path);
  const entry = notifiers.get(key) ?? { notifier: new ChangeNotifier(key), users: 0 };
  entry.users += 1;
  notifiers.set(key, entry);
  return entry.notifier;
}

export function releaseNotifier(path: string): void {
  const key = resolve(path);
  const entry = notifiers.get(key);
  if (!entry) return;
  entry.users -= 1;
  if (entry.users <= 0) notifiers.delete(key);
}
