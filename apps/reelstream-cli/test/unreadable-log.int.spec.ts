/**
 * A log the platform did not write (an edited event, an unknown type, data that is not JSON) is a
 * one-line error with exit code 2 (bad input), never a stack trace with exit code 1, which means
 * "differences found".
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { cli, writeDataFile, type CliRun, type DataFile } from './cli-harness.js';

let data: DataFile;

beforeAll(async () => {
  data = await writeDataFile(10);
}, 60_000);
afterAll(() => rmSync(data.dir, { recursive: true, force: true }));

/** A copy of the data file with one SQL edit applied; returns its path and the edited round's id. */
function editedCopy(sql: string): { path: string; roundId: number } {
  const path = join(mkdtempSync(join(data.dir, 'edited-')), 'reelstream.db');
  copyFileSync(data.path, path);
  const db = new Database(path);
  try {
    const row = db
      .prepare("SELECT position, data FROM es_events WHERE type = 'RoundSettled' ORDER BY position LIMIT 1")
      .get() as { position: number; data: string };
    db.prepare(sql).run({ position: row.position });
    return { path, roundId: (JSON.parse(row.data) as { roundId: number }).roundId };
  } finally {
    db.close();
  }
}

function expectOneLineError(run: CliRun, text: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(text);
  expect(run.stderr).not.toMatch(/\n\s+at /);
}

const replay = (path: string, ...args: string[]) =>
  cli(['replay', '--source', path, '--operators', data.operatorsFile, '--no-progress', ...args]);

describe('an unreadable event', () => {
  it('edited against its contract: --strict names its position in one line, exit 2', async () => {
    const { path } = editedCopy(
      `UPDATE es_events SET data = json_set(data, '$.winMinor', 'a lot') WHERE position = @position`,
    );
    const run = await replay(path, '--strict');
    expectOneLineError(
      run,
      /^reelstream replay: the log is not what the platform wrote: event at position \d+ \(round-\d+\)/,
    );
  });

  it('of a type the contracts do not know: one line, exit 2, also without --strict', async () => {
    const { path } = editedCopy(`UPDATE es_events SET type = 'RoundTeleported' WHERE position = @position`);
    expectOneLineError(await replay(path), /event at position \d+ .*cannot be read/);
  });

  it('whose data is not JSON: one line, exit 2', async () => {
    const { path } = editedCopy(`UPDATE es_events SET data = '{"roundId": 1,' WHERE position = @position`);
    expectOneLineError(await replay(path), /event at position \d+ is unreadable: data is not JSON/);
  });

  it('in the round audit asks for: one line, exit 2', async () => {
    const { path, roundId } = editedCopy(
      `UPDATE es_events SET data = json_set(data, '$.winMinor', -5) WHERE position = @position`,
    );
    const run = await cli(['audit', 'round', String(roundId), '--source', path]);
    expectOneLineError(run, /^reelstream audit round: the log is not what the platform wrote: event at position/);
  });
});
