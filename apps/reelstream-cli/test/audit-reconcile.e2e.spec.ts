/**
 * `audit round` and `reconcile` on the log of a real e2e run (test/support/scenario.ts): every
 * round of the run confirms and a tampered copy of the data file does not; the sandbox's own
 * export reconciles with no difference and an altered export does not.
 */
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { runScenario, type ScenarioResult } from './support/scenario.js';
import { bin, cli } from './support/run.js';

let scenario: ScenarioResult;
let work: string;

beforeAll(async () => {
  scenario = await runScenario();
  work = mkdtempSync(join(tmpdir(), 'reelstream-audit-'));
}, 120_000);
afterAll(() => {
  for (const dir of [scenario?.dataDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the data file with one stored event's data changed by `edit` (SQL over its JSON text). */
function tamperedCopy(name: string, roundId: number, type: string, edit: string): string {
  const path = join(work, `${name}.db`);
  copyFileSync(scenario.eventStoreFile, path);
  const db = new Database(path);
  const changed = db
    .prepare(`UPDATE es_events SET data = ${edit} WHERE stream_id = ? AND type = ?`)
    .run(`round-${roundId}`, type).changes;
  db.close();
  expect(changed).toBe(1);
  return path;
}

describe('reelstream audit round', () => {
  it('confirms every round of the run: free, paid, betwin, canceled and dead-lettered alike', async () => {
    expect(scenario.roundIds.length).toBeGreaterThanOrEqual(25);
    const failures: string[] = [];
    const statuses = new Map<string, number>();
    for (const roundId of scenario.roundIds) {
      const run = await cli(['audit', 'round', String(roundId), '--source', scenario.eventStoreFile, '--json']);
      const audit = JSON.parse(run.stdout) as {
        matches: boolean;
        kind: string;
        status: string;
        checks: { result: string }[];
      };
      if (run.code !== 0 || !audit.matches) failures.push(`${roundId}: ${run.stdout}`);
      const key = `${audit.kind}/${audit.status}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
    }
    expect(failures).toEqual([]);
    // The run reached every kind of round the audit must handle.
    expect(Object.fromEntries(statuses)).toMatchObject({
      'free/settled': expect.any(Number),
      'paid/settled': expect.any(Number),
      'paid/canceled': 1,
    });
  }, 60_000);

  it('lists the transactions that moved a canceled round’s money: the bet and the cancel that gave it back', async () => {
    const run = await cli(['audit', 'round', String(scenario.canceledRoundId), '--source', scenario.eventStoreFile]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/paid {2}canceled/);
    expect(run.stdout).toMatch(/\d+ +bet +-1\.00 EUR +unknown/);
    expect(run.stdout).toMatch(/\d+ +cancel +1\.00 EUR +applied +cancels \d+/);
    expect(run.stdout).toContain('MATCH');
  });

  it('confirms the dead-lettered round and says its win is owed, not paid', async () => {
    const run = await cli([
      'audit',
      'round',
      String(scenario.deadLetteredRoundId),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/NOTE +win delivery +win \d+ is dead-lettered: owed, not paid/);
  });

  it('fails a round whose recorded win was raised in a copy of the data file, through the real bin (exit 1)', async () => {
    // a paid slot round: its bet was applied and never canceled
    const paidBet = scenario.ledger.find((row) => row.command === 'bet' && row.canceledBy === null);
    const roundId = paidBet?.roundId ?? 0;
    const path = tamperedCopy(
      'raised-win',
      roundId,
      'RoundSettled',
      "json_set(data, '$.winMinor', json_extract(data, '$.winMinor') + 100)",
    );
    const run = await bin(['audit', 'round', String(roundId), '--source', path]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/MISMATCH +win +recorded \d+, draws pay \d+/);
    expect(run.stdout).toContain(`MISMATCH: round ${roundId} does not match its record`);
    // the untouched file still confirms it
    expect((await cli(['audit', 'round', String(roundId), '--source', scenario.eventStoreFile])).code).toBe(0);
  }, 30_000);

  it('fails a round whose recorded draw was changed, and a round whose draws were shifted', async () => {
    const roundId = scenario.roundIds[scenario.roundIds.length - 2] ?? 0;
    const outOfRange = tamperedCopy('draw', roundId, 'RoundSettled', "json_set(data, '$.outcome.draws[0]', 99999)");
    const run = await cli(['audit', 'round', String(roundId), '--source', outOfRange]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/MISMATCH +record +DRAW_OUT_OF_RANGE/);
    const dropped = tamperedCopy('dropped', roundId, 'RoundSettled', "json_remove(data, '$.outcome.draws[#-1]')");
    expect((await cli(['audit', 'round', String(roundId), '--source', dropped])).stdout).toMatch(/DRAWS_EXHAUSTED/);
  });

  it('says clearly when the round or the file is not there (exit 2)', async () => {
    const unknown = await cli(['audit', 'round', '42', '--source', scenario.eventStoreFile]);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('round 42 is not in the log') });
    const missing = await cli(['audit', 'round', '42', '--source', join(work, 'nope.db')]);
    expect(missing).toMatchObject({ code: 2, stderr: expect.stringContaining('no data file at') });
  });
});

describe('reelstream reconcile', () => {
  const exportFile = (operatorId: string, text: string) => {
    const path = join(work, `${operatorId}-${Math.random().toString(36).slice(2)}.csv`);
    writeFileSync(path, text);
    return path;
  };

  it('finds no difference between the log and the sandbox’s own export, for each operator', async () => {
    for (const operator of scenario.operators) {
      const path = exportFile(operator.id, scenario.exports[operator.id] ?? '');
      const run = await cli(['reconcile', '--operator', operator.id, path, '--source', scenario.eventStoreFile]);
      expect({ operator: operator.id, code: run.code, out: run.stdout }).toMatchObject({
        code: 0,
        out: expect.stringContaining('no difference'),
      });
    }
  });

  it('reads an export written with the amounts the callbacks carried (bets positive) and says which convention it read', async () => {
    const lines = (scenario.exports['casino-eu'] ?? '').trimEnd().split('\n');
    // The sandbox writes signed changes; an operator writing amounts as carried has every bet positive.
    const carried = lines.map((line) => line.replace(/,bet,-/, ',bet,'));
    expect(carried.filter((line) => line.includes(',bet,')).length).toBeGreaterThan(0);
    expect(carried).not.toEqual(lines);
    const run = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('carried', `${carried.join('\n')}\n`),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect({ code: run.code, out: run.stdout }).toMatchObject({
      code: 0,
      out: expect.stringContaining('no difference'),
    });
    expect(run.stdout).toMatch(
      /amounts read as carried \(detected\): amounts as the callbacks carried them \(0 bet row\(s\) negative, \d+ positive\)/,
    );
    const signed = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('signed', scenario.exports['casino-eu'] ?? ''),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(signed.stdout).toMatch(/amounts read as signed \(detected\)/);
    // Told the wrong convention, every bet differs; a convention that does not exist is bad input.
    const told = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      '--amounts',
      'signed',
      exportFile('told', `${carried.join('\n')}\n`),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(told.code).toBe(1);
    expect(told.stdout).toMatch(/amounts read as signed \(as told\)/);
    expect(told.stdout).toMatch(/amount_mismatch/);
    const bad = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      '--amounts',
      'absolute',
      exportFile('x', ''),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(bad).toMatchObject({ code: 2, stderr: expect.stringContaining('--amounts must be signed or carried') });
  }, 30_000);

  it('reports one altered amount, a missing row, and a cancel whose bet the operator does not have (exit 1)', async () => {
    const lines = (scenario.exports['casino-eu'] ?? '').trimEnd().split('\n');
    const winAt = lines.findIndex((line) => /,win,[1-9]/.test(line));
    const [winId] = (lines[winAt] ?? '').split(',');
    const altered = lines.map((line, i) => (i === winAt ? line.replace(/,win,[0-9.]+,/, ',win,99.99,') : line));
    const run = await bin([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('altered', `${altered.join('\n')}\n`),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('1 difference(s):');
    expect(run.stdout).toMatch(
      new RegExp(`amount_mismatch +${winId} +line ${winAt + 1}: the operator moved 99.99 EUR, the log says`),
    );

    const canceledBet = lines.findIndex((line, i) => line.includes(',bet,') && lines[i + 1]?.includes(',cancel,'));
    const withoutBet = lines.filter((_, i) => i !== canceledBet);
    const second = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('no-bet', withoutBet.join('\n')),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(second.code).toBe(1);
    expect(second.stdout).toMatch(
      /cancel_without_transaction +\d+ +line \d+: the cancel moved 1.00 EUR but the operator has no applied transaction/,
    );

    const paidWin = lines.findIndex((line, i) => i > 0 && line.includes(',bet,') && i !== canceledBet);
    const missing = lines.filter((_, i) => i !== paidWin);
    const third = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('missing', missing.join('\n')),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(third.stdout).toMatch(/missing_at_operator +\d+ +bet -1.00 EUR answered OK is not in the export/);
  }, 30_000);

  it('refuses an export without the documented columns, and an operator the log does not know (exit 2)', async () => {
    const bad = await cli([
      'reconcile',
      '--operator',
      'casino-eu',
      exportFile('bad', 'id,amount\n1,2\n'),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(bad).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('the header lacks transactionId, command, currency, status'),
    });
    const unknown = await cli([
      'reconcile',
      '--operator',
      'casino-xx',
      exportFile('x', scenario.exports['casino-eu'] ?? ''),
      '--source',
      scenario.eventStoreFile,
    ]);
    expect(unknown).toMatchObject({ code: 2, stderr: expect.stringContaining('casino-xx has no wallet transaction') });
  });
});
