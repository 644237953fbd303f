import type { CommitRequest, GroupMembership, TopicPartition } from './group-membership.js';

export const partitionKey = (topic: string, partition: number): string => `${partition}:${topic}`;

/**
 * Coalesces commits: positions of handled messages collect for `intervalMs`, then every partition's
 * latest one is written in a single fenced transaction. Only handled messages ever get here.
 */
export class OffsetCommitter {
  private pending = new Map<string, CommitRequest>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly membership: GroupMembership,
    private readonly intervalMs: number,
    private readonly onFenced: (lost: TopicPartition) => void,
    private readonly onError: (error: unknown) => void,
  ) {}

  markHandled(topic: string, partition: number, position: number): void {
    this.pending.set(partitionKey(topic, partition), { topic, partition, position });
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Removes and returns the uncommitted position of a partition (it is committed elsewhere). */
  take(topic: string, partition: number): number | undefined {
    const key = partitionKey(topic, partition);
    const position = this.pending.get(key)?.position;
    this.pending.delete(key);
    return position;
  }

  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    let fenced: TopicPartition[];
    try {
      fenced = this.membership.commit([...batch.values()]);
    } catch (error) {
      // Not written (e.g. the file stayed locked past the busy timeout): keep what is not superseded, try again.
      for (const [key, request] of batch) if (!this.pending.has(key)) this.pending.set(key, request);
      this.timer ??= setTimeout(() => this.flush(), Math.max(this.intervalMs, 100));
      this.onError(error);
      return;
    }
    for (const lost of fenced) this.onFenced(lost);
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/**
 * The fetched offsets of one partition not yet finished, when several of its messages are in
 * handlers at once (`keyConcurrency` > 1): the committable position is the last offset before
 * the first unfinished one, so a commit never passes a message whose handler has not finished.
 */
export class UnfinishedOffsets {
  private ids: number[] = [];
  private head = 0;
  private readonly finished = new Set<number>();

  constructor(private committable: number) {}

  get position(): number {
    return this.committable;
  }

  add(id: number): void {
    this.ids.push(id);
  }

  /** Marks `id` finished; the new committable position when it moved. */
  finish(id: number): number | undefined {
    this.finished.add(id);
    const before = this.committable;
    while (this.head < this.ids.length && this.finished.has(this.ids[this.head] as number)) {
      const next = this.ids[this.head] as number;
      this.finished.delete(next);
      this.committable = next;
      this.head += 1;
    }
    if (this.head > 1_024 && this.head * 2 > this.ids.length) {
      this.ids = this.ids.slice(this.head);
      this.head = 0;
    }
    return this.committable === before ? undefined : this.committable;
  }

  /** The committable position if `id` finished now (what dead-lettering `id` may commit). */
  positionIfFinished(id: number): number {
    let position = this.committable;
    for (let index = this.head; index < this.ids.length; index++) {
      const next = this.ids[index] as number;
      if (next !== id && !this.finished.has(next)) break;
      position = next;
    }
    return position;
  }
}
