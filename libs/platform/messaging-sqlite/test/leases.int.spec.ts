import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { reply, type Message } from '@reelstream/platform-ports';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { eventually } from '@reelstream/testing';
import { openDatabase, type Db } from '../src/database.js';
import { GroupMembership, initialiseOffsets } from '../src/group-membership.js';

/** Freezes this process's event loop: no heartbeat runs, as if the process had stalled. */
const stall = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('SqliteMessageBus leases and commits', () => {
  let dir: string;
  let path: string;
  let db: Db;
  const buses = new Set<SqliteMessageBus>();
  const open = async (options: Parameters<typeof SqliteMessageBus.open>[1]) => {
    const bus = await SqliteMessageBus.open(path, options);
    buses.add(bus);
    return bus;
  };
  const position = (groupId: string, topic: string, partition = 0) =>
    db
      .prepare<[string, string, number], number>(
        'SELECT position FROM bus_offsets WHERE group_id = ? AND topic = ? AND partition = ?',
      )
      .pluck()
      .get(groupId, topic, partition);
  const count = (sql: string, ...params: unknown[]) =>
    db
      .prepare<unknown[], number>(sql)
      .pluck()
      .get(...params) ?? 0;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bus-leases-'));
    path = join(dir, 'bus.db');
    db = await openDatabase(path, { synchronous: 'FULL', busyTimeoutMs: 5_000 });
  });

  afterEach(async () => {
    await Promise.all([...buses].map((bus) => bus.close()));
    buses.clear();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses the commit of a member whose lease expired, and of one whose lease was taken', async () => {
    const topics = new Map([['bets', 4]]);
    initialiseOffsets(db, 'g', topics, 'earliest');
    // A lease long enough that the first commit lands inside it even on a busy machine.
    const first = new GroupMembership(db, 'g', 'first', topics, 1_000);
    const second = new GroupMembership(db, 'g', 'second', topics, 1_000);
    expect(first.balance().owned.get('bets')).toEqual([0, 1, 2, 3]);
    expect(first.commit([{ topic: 'bets', partition: 0, position: 5 }])).toEqual([]);
    expect(position('g', 'bets')).toBe(5);

    // The lease runs out (nobody renews it): wait for the instant the row itself names.
    const leaseEnds = count("SELECT max(expires_at) FROM bus_leases WHERE group_id = 'g' AND owner = 'first'");
    await eventually(() => expect(Date.now()).toBeGreaterThan(leaseEnds), 5_000);
    expect(first.commit([{ topic: 'bets', partition: 0, position: 7 }])).toEqual([{ topic: 'bets', partition: 0 }]);
    expect(position('g', 'bets')).toBe(5);

    expect(second.balance().owned.get('bets')).toEqual([0, 1, 2, 3]);
    expect(first.commit([{ topic: 'bets', partition: 0, position: 9 }])).toEqual([{ topic: 'bets', partition: 0 }]);
    expect(second.commit([{ topic: 'bets', partition: 0, position: 9 }])).toEqual([]);
    expect(position('g', 'bets')).toBe(9);
  });

  it('splits partitions by fair share and gives back the surplus when a member joins', () => {
    const topics = new Map([['bets', 16]]);
    const first = new GroupMembership(db, 'g', 'first', topics, 10_000);
    const second = new GroupMembership(db, 'g', 'second', topics, 10_000);
    expect(first.balance().owned.get('bets')).toHaveLength(16);
    const joining = second.balance();
    expect(joining).toMatchObject({ balanced: false, surplus: [] });
    expect(joining.owned.get('bets')).toEqual([]);
    const rebalanced = first.balance();
    expect(rebalanced.surplus.map(({ partition }) => partition)).toEqual([8, 9, 10, 11, 12, 13, 14, 15]);
    for (const tp of rebalanced.surplus) first.release(tp, undefined);
    expect(second.balance()).toMatchObject({
      balanced: true,
      owned: new Map([['bets', [8, 9, 10, 11, 12, 13, 14, 15]]]),
    });
  });

  it('does not let a stalled member move the offset once its partition was taken: the message comes again', async () => {
    const bus = await open({ instanceId: 'stalling', partitions: 1, sessionTimeoutMs: 1_000, pollIntervalMs: 5 });
    const intruder = new GroupMembership(db, 'settle', 'intruder', new Map([['rounds', 1]]), 1_000);
    const deliveries: string[] = [];
    let stalled = false;
    const consumer = await bus.subscribe({
      groupId: 'settle',
      topics: ['rounds'],
      handler: async (message) => {
        const { seq } = message.value as { seq: number };
        deliveries.push(`seq ${seq} @${message.offset}`);
        if (seq === 1 && !stalled) {
          stalled = true;
          stall(1_500); // past the lease: another member takes the partition meanwhile
          expect(intruder.balance().owned.get('rounds')).toEqual([0]);
        }
      },
    });
    await consumer.ready;
    await bus.publish('rounds', { key: 'round-1', value: { seq: 0 } });
    await eventually(() => expect(position('settle', 'rounds')).toBe(1), 5_000);
    await bus.publish(
      'rounds',
      [1, 2].map((seq) => ({ key: 'round-1', value: { seq } })),
    );

    // The intruder never heartbeats: after its lease expires the partition comes back, from the last commit.
    await eventually(() => expect(deliveries).toEqual(['seq 0 @1', 'seq 1 @2', 'seq 1 @2', 'seq 2 @3']), 10_000);
    await eventually(() => expect(position('settle', 'rounds')).toBe(3), 5_000);
  });

  it('dead-letters and commits in one transaction: nothing of either is written when the lease is gone', async () => {
    const bus = await open({ instanceId: 'parking', partitions: 1, sessionTimeoutMs: 1_000, pollIntervalMs: 5 });
    const intruder = new GroupMembership(db, 'settle', 'intruder', new Map([['wins', 1]]), 1_000);
    const seenAtRedelivery: { parked: number; committed: number | undefined }[] = [];
    const handled: Message[] = [];
    let stalled = false;
    const consumer = await bus.subscribe({
      groupId: 'settle',
      topics: ['wins'],
      maxAttempts: 1,
      handler: async (message) => {
        if ((message.value as { poison?: boolean }).poison) {
          if (stalled)
            seenAtRedelivery.push({
              parked: count("SELECT count(*) FROM bus_messages WHERE topic = 'wins.dlq'"),
              committed: position('settle', 'wins'),
            });
          else {
            stalled = true;
            stall(1_500);
            intruder.balance();
          }
          throw new Error('operator answered garbage');
        }
        handled.push(message);
      },
    });
    await consumer.ready;
    await bus.publish('wins', { key: 'p', value: { seq: 0 } });
    await eventually(() => expect(position('settle', 'wins')).toBe(1), 5_000);
    await bus.publish('wins', [
      { key: 'p', value: { seq: 1, poison: true } },
      { key: 'p', value: { seq: 2 } },
    ]);

    await eventually(() => expect(handled.map(({ value }) => value)).toEqual([{ seq: 0 }, { seq: 2 }]), 10_000);
    // The fenced attempt wrote neither the dead letter nor the offset; the one after the lease came back wrote both.
    expect(seenAtRedelivery).toEqual([{ parked: 0, committed: 1 }]);
    expect(count("SELECT count(*) FROM bus_messages WHERE topic = 'wins.dlq'")).toBe(1);
    await eventually(() => expect(position('settle', 'wins')).toBe(3), 5_000);
  });

  it('hands a stopped member’s partitions to the rest of the group at once, not after the lease', async () => {
    const tuning = { sessionTimeoutMs: 30_000, pollIntervalMs: 5 };
    const [leaving, staying] = await Promise.all([
      open({ ...tuning, instanceId: 'leaving' }),
      open({ ...tuning, instanceId: 'staying' }),
    ]);
    const handled: string[] = [];
    const record = async (message: Message) => void handled.push(message.offset);
    const first = await leaving.subscribe({ groupId: 'g', topics: ['t'], handler: record });
    const second = await staying.subscribe({ groupId: 'g', topics: ['t'], handler: record });
    await Promise.all([first.ready, second.ready]);
    expect([first.assignedPartitions.length, second.assignedPartitions.length]).toEqual([8, 8]);

    const stoppedAt = Date.now();
    await first.stop();
    await eventually(() => expect(second.assignedPartitions).toHaveLength(16), 5_000, 5);
    expect(Date.now() - stoppedAt).toBeLessThan(2_000);
    expect(count("SELECT count(*) FROM bus_members WHERE group_id = 'g' AND member_id = 'leaving'")).toBe(0);
  });

  it('removes the ephemeral reply group of an instance when it closes', async () => {
    const [requester, responder] = await Promise.all([
      open({ instanceId: 'gateway-7', replyNumber: 70 }),
      open({ instanceId: 'ledger' }),
    ]);
    const answering = await responder.subscribe({
      groupId: 'ledger',
      topics: ['bonus.commands'],
      handler: async (message) => reply(responder, message, 'ok'),
    });
    await answering.ready;
    await requester.request(
      'bonus.commands',
      { key: 'p', value: {} },
      { replyTopic: 'bonus.replies', timeoutMs: 5_000 },
    );
    expect(count("SELECT count(*) FROM bus_offsets WHERE group_id = 'reply.gateway-7'")).toBeGreaterThan(0);
    // It reads one partition of the 64 of bonus.replies: its reply number's, 70 modulo 64.
    expect(db.prepare("SELECT partition FROM bus_leases WHERE group_id = 'reply.gateway-7'").all()).toEqual([
      { partition: 6 },
    ]);

    await requester.close();
    buses.delete(requester);
    for (const table of ['bus_offsets', 'bus_leases', 'bus_members']) {
      expect(count(`SELECT count(*) FROM ${table} WHERE group_id = 'reply.gateway-7'`)).toBe(0);
    }
  });
});
