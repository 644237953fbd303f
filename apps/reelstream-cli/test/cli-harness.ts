/** Runs the CLI in-process with captured output, and writes a small synthetic data file to read. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import {
  writeSyntheticLog,
  type SyntheticLogResult,
  type SyntheticOperator,
} from '../../../libs/analytics/application/test/synthetic-log.js';
import { runCli } from '../src/run-cli.js';

class Captured extends Writable {
  text = '';
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(args: readonly string[], options: { tty?: boolean; cwd?: string } = {}): Promise<CliRun> {
  const stdout = new Captured(options.tty ?? false);
  const stderr = new Captured(options.tty ?? false);
  const code = await runCli(args, { stdout, stderr, env: {}, cwd: options.cwd ?? process.cwd() });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

export const OPERATORS: readonly SyntheticOperator[] = [
  { id: 'casino-seoul', currency: 'KRW', timeZone: 'Asia/Seoul' },
  { id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' },
];

export interface DataFile {
  dir: string;
  path: string;
  operatorsFile: string;
  written: SyntheticLogResult;
}

export async function writeDataFile(sessions = 40): Promise<DataFile> {
  const dir = mkdtempSync(join(tmpdir(), 'reelstream-cli-'));
  const path = join(dir, 'reelstream.db');
  const store = SqliteEventStore.open(path, { synchronous: 'NORMAL' });
  const written = await writeSyntheticLog(store, {
    operators: OPERATORS,
    sessions,
    roundsPerSession: 4,
    concurrency: 4,
  });
  await store.close();
  const operatorsFile = join(dir, 'operators.json');
  writeOperatorsFile(operatorsFile, OPERATORS);
  return { dir, path, operatorsFile, written };
}

/**
 * The agent report's rows the workload counted while writing, as `reelstream replay --format json`
 * prints them (money in units, KRW without decimals; streamers excluded), for `toEqual` with
 * `arrayContaining`/`objectContaining`.
 */
export function expectedAgentRows(agent: SyntheticLogResult['agent']): Record<string, unknown>[] {
  const money = (minor: number, currency: string) => (currency === 'KRW' ? String(minor) : (minor / 100).toFixed(2));
  return [...agent.entries()].map(([key, totals]) => {
    const [operator, day, currency] = key.split('|') as [string, string, string];
    return {
      operator,
      day,
      currency,
      bets: money(totals.betsMinor, currency),
      wins: money(totals.winsMinor, currency),
      ggr: money(totals.betsMinor - totals.winsMinor, currency),
      freeSpinWins: money(totals.freeSpinWinsMinor, currency),
      // Free spins' stake is notional; what the bonuses paid is the free-spin wins credited (no Regular Bonus Call here).
      bonusNotional: money(totals.bonusCostMinor, currency),
      bonusPaid: money(totals.freeSpinWinsMinor, currency),
      players: totals.players.size,
    };
  });
}

/** An operators file (`--operators`) naming each synthetic operator with its currency and time zone. */
export function writeOperatorsFile(path: string, operators: readonly SyntheticOperator[]): void {
  const secret = (id: string, what: string) => `${id}-${what}-0123456789abcdef`;
  writeFileSync(
    path,
    JSON.stringify(
      operators.map((operator) => ({
        id: operator.id,
        name: operator.id,
        apiToken: secret(operator.id, 'token'),
        signingSecret: secret(operator.id, 'secret'),
        callbackUrl: 'http://localhost:9/wallet',
        currency: operator.currency,
        timeZone: operator.timeZone,
      })),
    ),
  );
}
