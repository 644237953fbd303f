/**
 * The replica proof's send count (support/replica-proof.ts) on a SQLite bus log written here, read
 * as the proof reads it (support/replica-engines.ts): each win
 * may be published once, plus once per kill of a replica of its sending service between its first
 * and last sending; bets are counted but not bounded (the resolver asks again by design).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import type { Kill } from './support/replica-cluster.js';
import { openClusterLog } from './support/replica-engines.js';
import {
  countSends as countPublished,
  overlappingPairs as overlapping,
  type Interruption,
} from './support/replica-proof.js';

const STARTED_AT = 1_700_000_000_000;

let dir: string;
let db: Database.Database;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'replica-proof-'));
  db = new Database(join(dir, 'reelstream.db'));
  db.exec(`CREATE TABLE es_events (position INTEGER PRIMARY KEY, stream_id TEXT NOT NULL, type TEXT NOT NULL)`);
  db.exec(`CREATE TABLE bus_messages (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL, partition INTEGER NOT NULL,
    key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT NOT NULL, timestamp INTEGER NOT NULL)`);
});

afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** One `wallet.requests` message `atMs` after the cluster started. */
function published(
  request: { command: string; transactionId: number; bonusId?: number },
  atMs: number,
  headers: Record<string, string> = {},
): void {
  db.prepare(
    `INSERT INTO bus_messages (topic, partition, key, value, headers, timestamp) VALUES ('wallet.requests', 0, 'op:p', ?, ?, ?)`,
  ).run(JSON.stringify(request), JSON.stringify(headers), STARTED_AT + atMs);
}

/** The proof's functions on the SQLite log of `dir`. */
const countSends = async (kills: readonly Interruption[], startedAt: number) =>
  countPublished(await openClusterLog(dir, undefined).bus.walletRequests(), kills, startedAt);
const overlappingPairs = (pairs: readonly [number, number][]) =>
  overlapping(openClusterLog(dir, undefined).events, pairs);

const kill = (service: Kill['service'], at: number): Kill => ({ at, service, instanceId: `${service}-r0` });
const freeSpinWin = (transactionId: number) => ({ command: 'win', transactionId, bonusId: 77 });
const paidWin = (transactionId: number) => ({ command: 'win', transactionId, bonusId: 0 });

describe('countSends', () => {
  it('accepts a win sent once, and one sent again after a kill of its sender between the sendings', async () => {
    published(freeSpinWin(1), 100);
    published(freeSpinWin(2), 200);
    published(freeSpinWin(2), 900);
    const figures = await countSends([kill('bonus-ledger', 500)], STARTED_AT);
    expect(figures.beyondBound).toEqual([]);
    expect(figures.bySource['bonus-ledger relay (free-spin wins)']).toEqual({
      transactions: 2,
      messages: 3,
      duplicated: 1,
      most: 2,
    });
  });

  it('refuses a win sent twice with no kill, or with a kill of another service only, or outside the window', async () => {
    published(freeSpinWin(1), 100);
    published(freeSpinWin(1), 120); // two relays at once: no kill explains it
    published(paidWin(2), 1_000);
    published(paidWin(2), 1_500); // the kill in between was of a ledger, not of a game-server
    published(paidWin(3), 3_000);
    published(paidWin(3), 3_100); // the game-server kill came after both sendings
    const figures = await countSends([kill('bonus-ledger', 1_200), kill('game-server', 4_000)], STARTED_AT);
    expect(figures.beyondBound).toHaveLength(3);
    expect(figures.beyondBound[0]).toMatch(/^transaction 1 \(bonus-ledger relay.*sent 2 times.*0 kill/);
    expect(figures.beyondBound[1]).toMatch(/^transaction 2 \(game-server round outbox.*sent 2 times.*0 kill/);
  });

  it('allows one more sending per kill and no more', async () => {
    for (const at of [100, 600, 1_100]) published(paidWin(5), at);
    expect((await countSends([kill('game-server', 400), kill('game-server', 900)], STARTED_AT)).beyondBound).toEqual(
      [],
    );
    expect((await countSends([kill('game-server', 400)], STARTED_AT)).beyondBound).toHaveLength(1);
  });

  it('allows one more sending per retry its sender logged (a send failed, a lease lost), and names them when over', async () => {
    for (const at of [100, 600, 1_100]) published(paidWin(6), at);
    const retry = {
      at: 300,
      service: 'game-server' as const,
      why: '+300 ms game-server-r1 round outbox failed; retrying',
    };
    expect((await countSends([retry, kill('game-server', 900)], STARTED_AT)).beyondBound).toEqual([]);
    const over = (await countSends([retry, { ...retry, service: 'bonus-ledger' }], STARTED_AT)).beyondBound;
    expect(over).toHaveLength(1);
    expect(over[0]).toMatch(
      /sent 3 times.*1 kill\(s\) or logged retries .*\(\+300 ms game-server-r1 round outbox failed; retrying\)$/,
    );
  });

  it('counts a win the dispatcher put back from a delay topic apart, not as another sending of its sender', async () => {
    published(paidWin(7), 100);
    published(paidWin(7), 6_100, { 'x-retry-count': '1', 'x-message-type': 'win' });
    published(paidWin(8), 200);
    published(paidWin(8), 300); // no header: the outbox sent it twice
    const figures = await countSends([], STARTED_AT);
    expect(figures.returnedFromDelay).toBe(1);
    expect(figures.beyondBound).toHaveLength(1);
    expect(figures.beyondBound[0]).toMatch(/^transaction 8 /);
  });

  it('counts bets (sent again by the resolver when the answer is late) without bounding them', async () => {
    published({ command: 'bet', transactionId: 9 }, 100);
    published({ command: 'bet', transactionId: 9 }, 200);
    published({ command: 'betwin', transactionId: 10 }, 300);
    const figures = await countSends([], STARTED_AT);
    expect(figures.beyondBound).toEqual([]);
    expect(figures.bySource['game-server spins and resolver (bets)']).toEqual({
      transactions: 2,
      messages: 3,
      duplicated: 1,
      most: 2,
    });
  });
});

describe('overlappingPairs', () => {
  /** Appends the events of one round to the log, in the order given. */
  const log = (...events: [number, string][]) => {
    for (const [roundId, type] of events)
      db.prepare('INSERT INTO es_events (stream_id, type) VALUES (?, ?)').run(`round-${roundId}`, type);
  };

  it('names the pairs whose rounds were open at once, not those one after the other', async () => {
    log([1, 'RoundStarted'], [2, 'RoundStarted'], [1, 'RoundSettled'], [2, 'RoundSettled']); // at once
    log([3, 'RoundStarted'], [3, 'RoundSettled'], [4, 'RoundStarted'], [4, 'RoundCanceled']); // one after the other
    log([5, 'RoundStarted'], [6, 'RoundStarted'], [6, 'RoundSettled']); // 5 never ended: open during 6
    expect(
      await overlappingPairs([
        [1, 2],
        [3, 4],
        [6, 5],
        [1, 1], // both clicks answered with the same round: one spin
      ]),
    ).toEqual(['1 and 2', '6 and 5']);
  });
});
