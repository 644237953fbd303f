import Database from 'better-sqlite3';
import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { SqliteCheckpointStore, readCheckpoint, writeCheckpoint, compareDecimalPositions } from '../src/index.js';
import { TempStores } from './temp-store.js';

const stores = new TempStores();
const databases: Database.Database[] = [];
const projectionDb = (name: string) => {
  const db = new Database(stores.path(name));
  db.pragma('journal_mode = WAL');
  databases.push(db);
  return db;
};
afterEach(async () => {
  for (const db of databases.splice(0)) db.close();
  await stores.closeAll();
});
afterAll(() => stores.dispose());

describe('SqliteCheckpointStore', () => {
  it('loads nothing for an unknown name, then what was stored', async () => {
    const checkpoints = new SqliteCheckpointStore(stores.open().database);
    expect(await checkpoints.load('projection-a')).toBeUndefined();
    await checkpoints.store('projection-a', '42');
    expect(await checkpoints.load('projection-a')).toBe('42');
    expect(await checkpoints.load('projection-b')).toBeUndefined();
  });

  it('never moves a checkpoint backwards (numerically, not as text)', async () => {
    const checkpoints = new SqliteCheckpointStore(stores.open().database);
    await checkpoints.store('p', '10');
    await checkpoints.store('p', '9'); // "9" > "10" as text, but earlier as a position
    await checkpoints.store('p', '10');
    expect(await checkpoints.load('p')).toBe('10');
    await checkpoints.store('p', '11');
    expect(await checkpoints.load('p')).toBe('11');
    await expect(checkpoints.store('p', 'abc')).rejects.toThrow(RangeError);
  });

  it("orders other stores' positions with the comparator it is given", async () => {
    const padded = (commit: number) => `${String(commit).padStart(20, '0')}-${String(commit).padStart(20, '0')}`;
    const checkpoints = new SqliteCheckpointStore(projectionDb('esdb-projection.db'), {
      comparePositions: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    });
    await checkpoints.store('p', padded(500));
    await checkpoints.store('p', padded(20));
    expect(await checkpoints.load('p')).toBe(padded(500));
  });

  it("commits or rolls back with a projection's own rows in its own database", () => {
    const db = projectionDb('read-model.db');
    db.exec('CREATE TABLE balances (player TEXT PRIMARY KEY, amount INTEGER NOT NULL)');
    const apply = db.transaction((amount: number, position: string, fail: boolean) => {
      db.prepare(
        'INSERT INTO balances (player, amount) VALUES (?, ?) ON CONFLICT (player) DO UPDATE SET amount = excluded.amount',
      ).run('p1', amount);
      expect(writeCheckpoint(db, 'balances', position, compareDecimalPositions)).toBe(true);
      if (fail) throw new Error('crash before commit');
    });
    apply(100, '7', false);
    expect(() => apply(250, '8', true)).toThrow('crash before commit');
    expect(readCheckpoint(db, 'balances')).toBe('7');
    expect(db.prepare('SELECT amount FROM balances').pluck().get()).toBe(100);
    expect(writeCheckpoint(db, 'balances', '6', compareDecimalPositions)).toBe(false);
    expect(readCheckpoint(db, 'balances')).toBe('7');
  });

  it('compares decimal positions by value', () => {
    expect(compareDecimalPositions('9', '10')).toBeLessThan(0);
    expect(compareDecimalPositions('123456789012345678901234', '123456789012345678901233')).toBeGreaterThan(0);
    expect(compareDecimalPositions('0', '0')).toBe(0);
    expect(() => compareDecimalPositions('-1', '2')).toThrow(RangeError);
    expect(() => compareDecimalPositions('01', '2')).toThrow(RangeError);
  });
});
