import { resolve } from 'node:path';
import { openDatabase, type Db } from './database.js';
import type { AppendedRows } from './log-writer.js';

/** The partitions (by topic) that got new messages; `null` when unknown (wake every worker). */
export type LogListener = (partitions: ReadonlyMap<string, ReadonlySet<number>> | null) => void;

/** Rows one poll looks at; a longer backlog of other processes' messages wakes every worker instead. */
const POLL_ROWS = 5_000;

interface Watcher {
  db: Db;
  timer: NodeJS.Timeout;
  intervalMs: number;
  poll: () => void;
  /** Id ranges this process committed and announced itself since the last poll: the poll skips them. */
  announced: [number, number][];
}
export type GroupListener = (groupId: string) => void;

/**
 * One per database file per process, shared by every SqliteMessageBus on that file: a publish
 * wakes this process's consumers at once, and other processes' publishes are noticed by polling
 * `PRAGMA data_version` (changes only when another connection committed) and then the log's rows
 * after the last one seen (heartbeats and commits do not wake anybody). Both wake only the workers
 * of the partitions that got messages, and the poll skips the rows this process announced itself.
 */
export class ChangeNotifier {
  private readonly logListeners = new Set<LogListener>();
  private readonly groupListeners = new Set<GroupListener>();
  private readonly pollIntervals = new Map<object, number>();
  private watcher: Watcher | undefined;
  private starting: Promise<void> | undefined;

  constructor(private readonly path: string) {}

  announce(rows: AppendedRows): void {
    if (rows.lastId === 0) return;
    this.watcher?.announced.push([rows.firstId, rows.lastId]);
    for (const listener of [...this.logListeners]) listener(rows.partitions);
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
      const rowsAfter = db.prepare<[number, number], { id: number; topic: string; partition: number }>(
        'SELECT id, topic, partition FROM bus_messages WHERE id > ? ORDER BY id LIMIT ?',
      );
      const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
      const state = { dataVersion: dataVersion.get() ?? 0, maxId: maxId.get() ?? 0 };
      const announced: [number, number][] = [];
      const poll = (): void => {
        const version = dataVersion.get() ?? 0;
        if (version === state.dataVersion) return;
        state.dataVersion = version;
        const rows = rowsAfter.all(state.maxId, POLL_ROWS);
        if (rows.length === 0) return;
        const woken = new Map<string, Set<number>>();
        for (const { id, topic, partition } of rows) {
          if (announced.some(([first, last]) => id >= first && id <= last)) continue;
          let partitions = woken.get(topic);
          if (!partitions) woken.set(topic, (partitions = new Set()));
          partitions.add(partition);
        }
        state.maxId = rows.at(-1)?.id ?? state.maxId;
        const keep = announced.filter(([, last]) => last > state.maxId);
        announced.splice(0, announced.length, ...keep);
        if (rows.length === POLL_ROWS) state.dataVersion = -1; // more to read: look again next time
        if (woken.size === 0) return;
        for (const listener of [...this.logListeners]) listener(rows.length === POLL_ROWS ? null : woken);
      };
      this.watcher = { db, poll, intervalMs: 0, timer: setInterval(poll, 1_000), announced };
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
