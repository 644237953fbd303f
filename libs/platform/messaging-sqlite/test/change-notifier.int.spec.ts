/**
 * How consumers learn of new messages: a publish in this process wakes only the
 * workers of the partitions it wrote to, and another process's publish (here: another connection
 * inserting into the log, as a process with its own notifier does) is found by the poll and named
 * by topic and partition too; the poll does not report this process's own messages a second time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { acquireNotifier, releaseNotifier, type ChangeNotifier } from '../src/change-notifier.js';
import { openDatabase, type Db } from '../src/database.js';
import { AppendedRows, LogWriter } from '../src/log-writer.js';
import { TopicRegistry } from '../src/topics.js';

type Woken = ReadonlyMap<string, ReadonlySet<number>> | null;
const plain = (woken: Woken) =>
  woken === null ? null : Object.fromEntries([...woken].map(([topic, partitions]) => [topic, [...partitions].sort()]));

describe('ChangeNotifier', () => {
  let dir: string;
  let path: string;
  let db: Db;
  let notifier: ChangeNotifier;
  let unwatch: (() => void) | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bus-notifier-'));
    path = join(dir, 'bus.db');
    db = await openDatabase(path, { synchronous: 'FULL', busyTimeoutMs: 5_000 });
    notifier = acquireNotifier(path);
  });

  afterEach(() => {
    unwatch?.();
    releaseNotifier(path);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('names only the partitions a publish of this process wrote to, and the poll does not name them again', async () => {
    const woken: Woken[] = [];
    unwatch = await notifier.watch({}, 5, (partitions) => woken.push(partitions));
    const writer = new LogWriter(db, new TopicRegistry(db, 16), (rows) => notifier.announce(rows));
    await writer.publish('t', [{ key: 'player-a', value: '1', headers: '{}' }]);
    expect(woken.map(plain)).toEqual([{ t: [expect.any(Number)] }]);
    // Several polls later: nothing more (the poll skipped the rows this process announced).
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(woken).toHaveLength(1);
  });

  it('finds another connection’s messages by polling and names their topics and partitions', async () => {
    const woken: Woken[] = [];
    unwatch = await notifier.watch({}, 5, (partitions) => woken.push(partitions));
    const insert = db.prepare(
      'INSERT INTO bus_messages (topic, partition, key, value, headers, timestamp) VALUES (?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      insert.run('t', 3, 'k1', '1', '{}', Date.now());
      insert.run('t', 7, 'k2', '2', '{}', Date.now());
      insert.run('u', 0, 'k3', '3', '{}', Date.now());
    })();
    await eventually(() => expect(woken.map(plain)).toEqual([{ t: [3, 7], u: [0] }]));
  });

  it('records what one transaction appended: its partitions by topic and its first and last id', () => {
    const rows = new AppendedRows();
    rows.add('t', 2, 11);
    rows.add('t', 5, 12);
    rows.add('u', 2, 13);
    expect(plain(rows.partitions)).toEqual({ t: [2, 5], u: [2] });
    expect([rows.firstId, rows.lastId]).toEqual([11, 13]);
  });
});
