import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { Message } from '@reelstream/platform-ports';
import { SqliteMessageBus, partitionFor } from '@reelstream/platform-messaging-sqlite';
import { eventually, WorkerProcess } from '@reelstream/testing';

const MEMBER = fileURLToPath(new URL('./workers/member.worker.ts', import.meta.url));
const PUBLISHER = fileURLToPath(new URL('./workers/publisher.worker.ts', import.meta.url));

describe('SqliteMessageBus across processes', () => {
  const children = new Set<WorkerProcess>();
  const buses = new Set<SqliteMessageBus>();
  let dir: string;
  let path: string;

  const spawn = (file: string, env: Record<string, string>, options: object = {}) => {
    const child = new WorkerProcess(file, { BUS_PATH: path, BUS_OPTIONS: JSON.stringify(options), ...env });
    children.add(child);
    return child;
  };
  const open = async (options: Parameters<typeof SqliteMessageBus.open>[1]) => {
    const bus = await SqliteMessageBus.open(path, options);
    buses.add(bus);
    return bus;
  };

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bus-processes-'));
    path = join(dir, 'bus.db');
  });

  afterEach(async () => {
    await Promise.all([...children].map((child) => child.kill('SIGKILL')));
    children.clear();
    await Promise.all([...buses].map((bus) => bus.close()));
    buses.clear();
    rmSync(dir, { recursive: true, force: true });
  });

  afterAll(async () => {
    await Promise.all([...children].map((child) => child.kill('SIGKILL')));
  });

  it('delivers what another process publishes, in per-key order, noticed by polling within milliseconds', async () => {
    const consumerBus = await open({ pollIntervalMs: 10 });
    const received: { message: Message; at: number }[] = [];
    const consumer = await consumerBus.subscribe({
      groupId: 'readers',
      topics: ['orders'],
      handler: async (message) => {
        received.push({ message, at: Date.now() });
      },
    });
    await consumer.ready;

    const publisher = spawn(PUBLISHER, { TOPIC: 'orders', COUNT: '200', KEYS: '10' });
    await publisher.waitForLine(/^PUBLISHED$/, 30_000);
    await eventually(() => expect(received).toHaveLength(200), 10_000);

    const byKey = new Map<string, number[]>();
    for (const { message } of received)
      byKey.set(message.key, [...(byKey.get(message.key) ?? []), (message.value as { seq: number }).seq]);
    for (const seqs of byKey.values()) expect(seqs).toEqual(Array.from({ length: 20 }, (_, seq) => seq));
    const latencies = received
      .map(({ message, at }) => at - (message.value as { sentAt: number }).sentAt)
      .sort((a, b) => a - b);
    // Polled every 10 ms: the first message is noticed within milliseconds. Only the fastest is asserted: the
    // rest queue behind one another per key and, on a loaded machine, behind other processes for the CPU (the
    // fastest quarter once took a second in a CI run beside other suites).
    const quartile = (q: number) => latencies[Math.floor((latencies.length - 1) * q)];
    console.log(`[multi-process] latency ms: min ${quartile(0)}, p25 ${quartile(0.25)}, p50 ${quartile(0.5)}`);
    expect(latencies[0]).toBeLessThan(250);
  }, 60_000);

  it("takes over a killed member's partitions once its leases expire", async () => {
    const tuning = { sessionTimeoutMs: 1_000, pollIntervalMs: 10 };
    const doomed = spawn(MEMBER, { TOPIC: 'bets', GROUP_ID: 'settlement' }, { ...tuning, instanceId: 'doomed' });
    await doomed.waitForLine(/^READY \d+ 16$/, 30_000);

    const survivorBus = await open({ ...tuning, instanceId: 'survivor' });
    const handled: Message[] = [];
    const survivor = await survivorBus.subscribe({
      groupId: 'settlement',
      topics: ['bets'],
      handler: async (m) => void handled.push(m),
    });
    await survivor.ready;
    expect(survivor.assignedPartitions).toHaveLength(8);

    await doomed.kill('SIGKILL');
    const killedAt = Date.now();
    await survivorBus.publish(
      'bets',
      Array.from({ length: 64 }, (_, n) => ({ key: `player-${n}`, value: { n } })),
    );
    const tookOverAt = await eventually(
      () => {
        expect(survivor.assignedPartitions).toHaveLength(16);
        return Date.now();
      },
      10_000,
      5,
    );
    await eventually(() => expect(handled).toHaveLength(64), 10_000);

    // Not before the dead member's lease ran out (it renewed at most a heartbeat, 200 ms, before dying).
    expect(tookOverAt - killedAt).toBeGreaterThanOrEqual(tuning.sessionTimeoutMs - 200 - 50);
    expect(new Set(handled.map(({ offset }) => offset)).size).toBe(64);
  }, 60_000);

  it('lets a restarted member with the same id take its own leases back at once', async () => {
    const tuning = { sessionTimeoutMs: 8_000, instanceId: 'ledger-0' };
    const first = spawn(MEMBER, { TOPIC: 'commands', GROUP_ID: 'ledger' }, tuning);
    await first.waitForLine(/^READY \d+ 16$/, 30_000);
    await first.kill('SIGKILL');

    const restarted = spawn(MEMBER, { TOPIC: 'commands', GROUP_ID: 'ledger' }, tuning);
    const [, readyAfterMs] = await restarted.waitForLine(/^READY (\d+) 16$/, 30_000);
    expect(Number(readyAfterMs)).toBeLessThan(tuning.sessionTimeoutMs / 2);
  }, 60_000);

  it('survives several processes creating the schema of a fresh file at the same moment, and they agree on partition counts', async () => {
    const startAt = String(Date.now() + 1_500);
    const racers = Array.from({ length: 4 }, (_, n) =>
      // Each racer would create the topic with a different partition count: the first one wins for all.
      spawn(
        PUBLISHER,
        { TOPIC: 'race', COUNT: '25', KEYS: '5', PUBLISHER: `p${n}`, START_AT: startAt },
        { partitions: 4 + n },
      ),
    );
    await Promise.all(racers.map((racer) => racer.waitForLine(/^PUBLISHED$/, 30_000)));

    const db = new Database(path, { readonly: true });
    try {
      const partitions = db.prepare<[], number>("SELECT partitions FROM bus_topics WHERE topic = 'race'").pluck().get();
      expect([4, 5, 6, 7]).toContain(partitions);
      const rows = db
        .prepare<[], { key: string; partition: number; value: string }>(
          "SELECT key, partition, value FROM bus_messages WHERE topic = 'race'",
        )
        .all();
      expect(rows).toHaveLength(100);
      for (const row of rows) expect(row.partition).toBe(partitionFor(row.key, partitions ?? 0));
      expect(new Set(rows.map((row) => (JSON.parse(row.value) as { publisher: string }).publisher))).toEqual(
        new Set(['p0', 'p1', 'p2', 'p3']),
      );
    } finally {
      db.close();
    }
  }, 60_000);
});
