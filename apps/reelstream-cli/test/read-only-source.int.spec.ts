/**
 * The CLI only reads: a data file given read-only is read, nothing is created beside it or changed
 * in it, and a file that is not an event store is refused with exit code 2 and left as it was.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { cli, writeDataFile, type DataFile } from './cli-harness.js';

let data: DataFile;
let dir: string;

const digest = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
/** A round of the written log, read straight from the original file. */
function firstRoundId(): number {
  const db = new Database(data.path, { readonly: true });
  try {
    const row = db.prepare("SELECT data FROM es_events WHERE type = 'RoundStarted' LIMIT 1").pluck().get() as string;
    return (JSON.parse(row) as { roundId: number }).roundId;
  } finally {
    db.close();
  }
}
const replay = (path: string, ...args: string[]) =>
  cli(['replay', '--source', path, '--operators', data.operatorsFile, '--no-progress', ...args]);

beforeAll(async () => {
  data = await writeDataFile(10);
  dir = mkdtempSync(join(tmpdir(), 'reelstream-readonly-'));
}, 60_000);
afterAll(() => {
  chmodSync(dir, 0o755);
  rmSync(dir, { recursive: true, force: true });
  rmSync(data.dir, { recursive: true, force: true });
});

describe('the CLI opens its source read-only', () => {
  it('reads a read-only file in a read-only folder and creates or changes nothing', async () => {
    const folder = mkdtempSync(join(dir, 'ro-'));
    const path = join(folder, 'reelstream.db');
    copyFileSync(data.path, path);
    chmodSync(path, 0o444);
    const before = digest(path);
    chmodSync(folder, 0o555);
    try {
      const run = await replay(path, '--report', 'agent', '--format', 'csv');
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout.split('\r\n').length).toBeGreaterThan(2);
      const audit = await cli(['audit', 'round', String(firstRoundId()), '--source', path]);
      expect(audit.stderr).toBe('');
      expect(audit.stdout).toContain('round');
      expect(readdirSync(folder)).toEqual(['reelstream.db']);
      expect(digest(path)).toBe(before);
    } finally {
      chmodSync(folder, 0o755);
    }
  });

  it('reads a file beside its live writer (a -wal file) without creating anything', async () => {
    const folder = mkdtempSync(join(dir, 'live-'));
    const path = join(folder, 'reelstream.db');
    copyFileSync(data.path, path);
    const writer = new Database(path);
    writer.pragma('journal_mode = WAL');
    writer.exec('UPDATE es_events SET recorded_at = recorded_at WHERE position = 1');
    try {
      const files = readdirSync(folder).sort();
      expect(files).toEqual(['reelstream.db', 'reelstream.db-shm', 'reelstream.db-wal']);
      const run = await replay(path, '--report', 'agent');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(readdirSync(folder).sort()).toEqual(files);
    } finally {
      writer.close();
    }
  });

  const refused: [string, (path: string) => void][] = [
    ['a 0-byte file', (path) => writeFileSync(path, '')],
    ['a text file', (path) => writeFileSync(path, 'operatorId,amount\ncasino,1.00\n')],
    [
      'a SQLite database of something else (a service’s tables without the event table)',
      (path) => {
        const db = new Database(path);
        db.exec(
          'CREATE TABLE bus_messages (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO bus_messages VALUES (1, 1)',
        );
        db.close();
      },
    ],
  ];

  it.each(refused)('refuses %s with exit code 2 and leaves it as it was', async (_what, make) => {
    const folder = mkdtempSync(join(dir, 'bad-'));
    const path = join(folder, 'file.db');
    make(path);
    const before = digest(path);
    const run = await replay(path);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('not a reelstream data file');
    expect(readdirSync(folder)).toEqual(['file.db']);
    expect(digest(path)).toBe(before);
  });
});
