import { withoutOwnFsync, type Db } from './database.js';

export interface TopicPartition {
  topic: string;
  partition: number;
}

export interface CommitRequest extends TopicPartition {
  /** Id of the last handled message. */
  position: number;
}

export interface BalanceResult {
  /** Partitions whose lease this member holds now, per topic. */
  owned: Map<string, number[]>;
  /** Partitions above this member's fair share: to be released once their in-flight message is done. */
  surplus: TopicPartition[];
  /** True when this member holds its fair share or nothing more will be handed to it. */
  balanced: boolean;
}

interface CommitParameters {
  position: number;
  now: number;
  groupId: string;
  topic: string;
  partition: number;
  memberId: string;
}

interface LeaseRow {
  partition: number;
  owner: string;
  expires_at: number;
}

/**
 * One member of a consumer group, as rows in the shared file: a member row per topic (liveness),
 * leases on partitions (ownership, renewed by heartbeat), committed positions fenced by the lease.
 * Every method is one short write transaction and never spans an await.
 */
export class GroupMembership {
  private readonly statements;
  private readonly commitTransaction;
  private readonly balanceTransaction;

  constructor(
    private readonly db: Db,
    readonly groupId: string,
    readonly memberId: string,
    private readonly topics: ReadonlyMap<string, number>,
    private readonly sessionTimeoutMs: number,
    /** The only partitions of each topic this member may hold (a reply listener's one); default all. */
    private readonly only?: readonly number[],
  ) {
    this.statements = {
      upsertMember: db.prepare<[string, string, string, number]>(
        `INSERT INTO bus_members (group_id, topic, member_id, expires_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (group_id, topic, member_id) DO UPDATE SET expires_at = excluded.expires_at`,
      ),
      dropDeadMembers: db.prepare<[string, number]>('DELETE FROM bus_members WHERE group_id = ? AND expires_at <= ?'),
      liveMembers: db
        .prepare<[string, string, number], number>(
          'SELECT count(*) FROM bus_members WHERE group_id = ? AND topic = ? AND expires_at > ?',
        )
        .pluck(),
      renewLeases: db.prepare<[number, string, string, string, number]>(
        'UPDATE bus_leases SET expires_at = ? WHERE group_id = ? AND topic = ? AND owner = ? AND expires_at > ?',
      ),
      leases: db.prepare<[string, string], LeaseRow>(
        'SELECT partition, owner, expires_at FROM bus_leases WHERE group_id = ? AND topic = ?',
      ),
      claimLease: db.prepare<[string, string, number, string, number, number, string]>(
        `INSERT INTO bus_leases (group_id, topic, partition, owner, expires_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (group_id, topic, partition) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE bus_leases.expires_at <= ? OR bus_leases.owner = ?`,
      ),
      releaseLease: db.prepare<[string, string, number, string]>(
        'DELETE FROM bus_leases WHERE group_id = ? AND topic = ? AND partition = ? AND owner = ?',
      ),
      commit: db.prepare<[CommitParameters]>(
        `UPDATE bus_offsets SET position = max(position, @position), updated_at = @now
         WHERE group_id = @groupId AND topic = @topic AND partition = @partition
           AND EXISTS (SELECT 1 FROM bus_leases l
                       WHERE l.group_id = @groupId AND l.topic = @topic AND l.partition = @partition
                         AND l.owner = @memberId AND l.expires_at > @now)`,
      ),
      position: db
        .prepare<[string, string, number], number>(
          'SELECT position FROM bus_offsets WHERE group_id = ? AND topic = ? AND partition = ?',
        )
        .pluck(),
      leaveLeases: db.prepare<[string, string, string]>(
        'DELETE FROM bus_leases WHERE group_id = ? AND topic = ? AND owner = ?',
      ),
      leaveMember: db.prepare<[string, string, string]>(
        'DELETE FROM bus_members WHERE group_id = ? AND topic = ? AND member_id = ?',
      ),
    };
    this.commitTransaction = db.transaction((requests: readonly CommitRequest[]) => this.commitInTransaction(requests));
    this.balanceTransaction = db.transaction(() => this.balanceOnce());
  }

  /**
   * Heartbeat and rebalance in one transaction: renew this member and its live leases, then claim
   * free or expired partitions up to ceil(partitions / live members) and report any surplus.
   */
  balance(): BalanceResult {
    return withoutOwnFsync(this.db, () => this.balanceTransaction.immediate());
  }

  private balanceOnce(): BalanceResult {
    const s = this.statements;
    const now = Date.now();
    const expiresAt = now + this.sessionTimeoutMs;
    s.dropDeadMembers.run(this.groupId, now);
    const owned = new Map<string, number[]>();
    const surplus: TopicPartition[] = [];
    let balanced = true;
    for (const [topic, partitions] of this.topics) {
      s.upsertMember.run(this.groupId, topic, this.memberId, expiresAt);
      s.renewLeases.run(expiresAt, this.groupId, topic, this.memberId, now);
      const claimable = this.only?.filter((partition) => partition < partitions) ?? [...Array(partitions).keys()];
      const share = Math.ceil(claimable.length / Math.max(1, s.liveMembers.get(this.groupId, topic, now) ?? 1));
      const mine: number[] = [];
      const heldByOthers = new Map<string, number>();
      const taken = new Set<number>();
      for (const lease of s.leases.all(this.groupId, topic)) {
        if (lease.expires_at <= now || lease.partition >= partitions) continue;
        taken.add(lease.partition);
        if (lease.owner === this.memberId) mine.push(lease.partition);
        else heldByOthers.set(lease.owner, (heldByOthers.get(lease.owner) ?? 0) + 1);
      }
      for (const partition of claimable) {
        if (mine.length >= share) break;
        if (taken.has(partition)) continue;
        const claimed = s.claimLease.run(
          this.groupId,
          topic,
          partition,
          this.memberId,
          expiresAt,
          now,
          this.memberId,
        ).changes;
        if (claimed > 0) mine.push(partition);
      }
      mine.sort((a, b) => a - b);
      const extra = mine.length - share;
      for (const partition of extra > 0 ? mine.slice(-extra) : []) surplus.push({ topic, partition });
      owned.set(topic, mine);
      const someoneWillRelease = [...heldByOthers.values()].some((count) => count > share);
      if (mine.length < share && someoneWillRelease) balanced = false;
    }
    return { owned, surplus, balanced };
  }

  /**
   * Moves the committed positions forward, fenced by the lease: a partition whose lease this member
   * no longer holds (expired or taken) is not written and is returned, so its worker stops.
   */
  commit(requests: readonly CommitRequest[]): TopicPartition[] {
    if (requests.length === 0) return [];
    return withoutOwnFsync(this.db, () => this.commitTransaction.immediate(requests));
  }

  /** The fenced commit, for callers that already hold a transaction (dead-lettering). */
  commitInTransaction(requests: readonly CommitRequest[]): TopicPartition[] {
    const now = Date.now();
    const fenced: TopicPartition[] = [];
    for (const { topic, partition, position } of requests) {
      const applied = this.statements.commit.run({
        position,
        now,
        groupId: this.groupId,
        topic,
        partition,
        memberId: this.memberId,
      }).changes;
      if (applied === 0) fenced.push({ topic, partition });
    }
    return fenced;
  }

  /** Commits what was handled (if still owned) and gives the partition back, atomically. */
  release(partition: TopicPartition, position: number | undefined): void {
    withoutOwnFsync(this.db, () =>
      this.db
        .transaction(() => {
          if (position !== undefined) this.commitInTransaction([{ ...partition, position }]);
          this.statements.releaseLease.run(this.groupId, partition.topic, partition.partition, this.memberId);
        })
        .immediate(),
    );
  }

  committedPosition(topic: string, partition: number): number {
    return this.statements.position.get(this.groupId, topic, partition) ?? 0;
  }

  /** Gives back every lease and the membership, so the others rebalance at once. */
  leave(): void {
    this.db
      .transaction(() => {
        for (const topic of this.topics.keys()) {
          this.statements.leaveLeases.run(this.groupId, topic, this.memberId);
          this.statements.leaveMember.run(this.groupId, topic, this.memberId);
        }
      })
      .immediate();
  }
}

/**
 * Gives a group a starting position in every partition where it has none: 0 ('earliest') or the
 * current end of the log ('latest'). Existing committed positions are kept.
 */
export function initialiseOffsets(
  db: Db,
  groupId: string,
  topics: ReadonlyMap<string, number>,
  from: 'earliest' | 'latest',
): void {
  const insert = db.prepare<[string, string, number, number, number]>(
    `INSERT INTO bus_offsets (group_id, topic, partition, position, updated_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (group_id, topic, partition) DO NOTHING`,
  );
  const logEnd = db.prepare<[], number | null>('SELECT max(id) FROM bus_messages').pluck();
  db.transaction(() => {
    const start = from === 'latest' ? (logEnd.get() ?? 0) : 0;
    const now = Date.now();
    for (const [topic, partitions] of topics) {
      for (let partition = 0; partition < partitions; partition++) insert.run(groupId, topic, partition, start, now);
    }
  }).immediate();
}

/** Removes every trace of a group (ephemeral reply groups on close). */
export function deleteGroup(db: Db, groupId: string): void {
  db.transaction(() => {
    for (const table of ['bus_offsets', 'bus_leases', 'bus_members']) {
      db.prepare(`DELETE FROM ${table} WHERE group_id = ?`).run(groupId);
    }
  }).immediate();
}
