/**
 * FreeSpins (ADR 0006): the game-server's in-process decisions on the player's bonus stream — the
 * same record as the read model's, the same lock and the same idempotency by roundId across
 * processes — on a real embedded event store, two connections to one file standing in for two
 * game-server processes (each with its own state cache).
 */
import { afterAll, describe, expect, it } from '@jest/globals';
import { bonusDecider } from '@reelstream/bonus-domain';
import {
  isRefusal,
  parseStoredEvent,
  playerBonusStream,
  type BonusCallRecord,
  type PlayerBonusEvent,
} from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock } from '@reelstream/platform-ports';
import { bonusCallRecordOf, FreeSpins, projectBonusCall } from '../src/index.js';
import { accepted, command, refusedCodes, registerCommand, StoreFixture } from './fixtures.js';

const fixture = new StoreFixture();
const opened: SqliteEventStore[] = [];

afterAll(async () => {
  for (const store of opened) await store.close();
  await fixture.close();
});

/** A FreeSpins of "another process": its own connection to the fixture's file, its own ids. */
function gameServerSpins(): FreeSpins {
  const store = SqliteEventStore.open(fixture.store.database.name);
  opened.push(store);
  return new FreeSpins({ store, clock: systemClock, ids: new TimeOrderedIdGenerator(3) });
}

async function streamEvents(playerId: string): Promise<PlayerBonusEvent[]> {
  const stored = await fixture.store.readStream(playerBonusStream('demo', playerId));
  return stored.map((event) => parseStoredEvent(event) as PlayerBonusEvent);
}

/** The read model's record of each bonus call: the projection's fold of the stream, event by event. */
async function projectedRecords(playerId: string): Promise<Map<number, BonusCallRecord>> {
  const records = new Map<number, BonusCallRecord>();
  for (const event of await streamEvents(playerId))
    records.set(event.data.issueId, projectBonusCall(records.get(event.data.issueId), event));
  return records;
}

async function registered(platformId: string, playerId: string, spinAmount = 3): Promise<number> {
  return accepted(await fixture.commands().register(...registerCommand(platformId, playerId, { spinAmount }))).issueId;
}

const start = (playerId: string, issueId: number, roundId: number) =>
  command({ operatorId: 'demo', playerId, issueId, gameId: 101, roundId, currency: 'EUR' });
const settle = (playerId: string, issueId: number, roundId: number, winMinor: number) =>
  command({ operatorId: 'demo', playerId, issueId, roundId, winMinor });

describe('FreeSpins: the active bonus call folded from the player stream', () => {
  it('is the read model’s record after every step, and null once the bonus call ends', async () => {
    const spins = gameServerSpins();
    const issueId = await registered('fs-record', 'recorder', 2);
    const expectSameRecord = async () =>
      expect(await spins.active('demo', 'recorder')).toEqual((await projectedRecords('recorder')).get(issueId));

    await expectSameRecord();
    expect(await spins.startSpin(...start('recorder', issueId, 501))).toMatchObject({ roundId: 501, spinNumber: 1 });
    await expectSameRecord();
    expect(await spins.active('demo', 'recorder')).toMatchObject({ openRoundId: 501, spinsUsed: 1, spinsLeft: 1 });
    expect(await spins.settleSpin(...settle('recorder', issueId, 501, 150))).toMatchObject({ winMinor: 150 });
    await expectSameRecord();
    await spins.startSpin(...start('recorder', issueId, 502));
    expect(await spins.settleSpin(...settle('recorder', issueId, 502, 20))).toMatchObject({
      completed: true,
      spinsLeft: 0,
      totalWinMinor: 170,
    });
    expect(await spins.active('demo', 'recorder')).toBeNull();
    // The ended bonus call's record from the fold is the projection's too (completedAt set).
    const projected = (await projectedRecords('recorder')).get(issueId);
    const account = (await streamEvents('recorder')).reduce(bonusDecider.evolve, bonusDecider.initialState);
    const bonus = account.bonuses.get(issueId);
    if (!bonus) throw new Error('the bonus call is missing from the fold');
    expect(projected).toMatchObject({ status: 'completed' });
    expect(bonusCallRecordOf(bonus)).toEqual(projected);
  });

  it('agrees with the projection on a canceled bonus call whose spin settled after the cancel', async () => {
    const spins = gameServerSpins();
    const issueId = await registered('fs-cancel', 'canceler');
    await spins.startSpin(...start('canceler', issueId, 601));
    const commands = fixture.commands(undefined, async () => 'canceler');
    expect(await commands.cancel(...command({ operatorId: 'demo', issueId }))).toEqual({
      issueId,
      alreadyCanceled: false,
    });
    expect(await spins.active('demo', 'canceler')).toBeNull();
    expect(await spins.settleSpin(...settle('canceler', issueId, 601, 40))).toMatchObject({
      winMinor: 40,
      completed: false,
    });
    const account = (await streamEvents('canceler')).reduce(bonusDecider.evolve, bonusDecider.initialState);
    const bonus = account.bonuses.get(issueId);
    if (!bonus) throw new Error('the bonus call is missing from the fold');
    expect(bonusCallRecordOf(bonus)).toEqual((await projectedRecords('canceler')).get(issueId));
    expect(bonusCallRecordOf(bonus)).toMatchObject({ status: 'canceled', openRoundId: null, totalWinMinor: 40 });
  });
});

describe('FreeSpins of two processes on the same stream', () => {
  it('10 starts of different rounds, half in each process: one spin starts, the others are FREE_SPIN_IN_PROGRESS', async () => {
    const spins = gameServerSpins();
    const other = fixture.freeSpins();
    const issueId = await registered('fs-race', 'racer');
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        n % 2 === 0
          ? spins.startSpin(...start('racer', issueId, 700 + n))
          : other.startSpin(...start('racer', issueId, 700 + n)),
      ),
    );
    expect(answers.filter((answer) => !isRefusal(answer))).toHaveLength(1);
    expect(refusedCodes(answers)).toEqual(Array.from({ length: 9 }, () => 'FREE_SPIN_IN_PROGRESS'));
    expect((await streamEvents('racer')).filter((event) => event.type === 'FreeSpinStarted')).toHaveLength(1);
  });

  it('a settle resent to the other process is answered from the stream: one FreeSpinSettled, one transactionId', async () => {
    const spins = gameServerSpins();
    const other = fixture.freeSpins();
    const issueId = await registered('fs-resend', 'resender');
    const started = accepted(await spins.startSpin(...start('resender', issueId, 801)));
    expect(started).toMatchObject({ spinNumber: 1, baseBetAmountMinor: 20, replayed: false });
    expect(await other.startSpin(...start('resender', issueId, 801))).toEqual({ ...started, replayed: true });
    const first = accepted(await spins.settleSpin(...settle('resender', issueId, 801, 90)));
    const again = await other.settleSpin(...settle('resender', issueId, 801, 5_000));
    expect(first).toMatchObject({ winMinor: 90, replayed: false });
    expect(again).toEqual({ ...first, replayed: true });
    const settledEvents = (await streamEvents('resender')).filter((event) => event.type === 'FreeSpinSettled');
    expect(settledEvents).toHaveLength(1);
    expect(settledEvents[0]?.data).toMatchObject({ roundId: 801, winMinor: 90, rawWinMinor: 90 });
  });

  it('refuses what the ledger refuses, with its codes, and writes nothing', async () => {
    const spins = gameServerSpins();
    const issueId = await registered('fs-refuse', 'refused');
    const before = (await streamEvents('refused')).length;
    expect(
      await spins.startSpin(
        ...command({ operatorId: 'demo', playerId: 'refused', issueId, gameId: 555, roundId: 901 }),
      ),
    ).toMatchObject({ type: 'Refusal', code: 'GAME_NOT_IN_BONUS' });
    expect(
      await spins.startSpin(
        ...command({
          operatorId: 'demo',
          playerId: 'refused',
          issueId,
          gameId: 101,
          roundId: 902,
          currency: 'USD',
        }),
      ),
    ).toMatchObject({ type: 'Refusal', code: 'BONUS_CURRENCY_MISMATCH' });
    expect(await spins.settleSpin(...settle('refused', issueId, 903, 10))).toMatchObject({
      type: 'Refusal',
      code: 'FREE_SPIN_NOT_STARTED',
    });
    expect(await spins.startSpin(...start('refused', issueId + 1, 904))).toMatchObject({
      type: 'Refusal',
      code: 'BONUS_NOT_FOUND',
    });
    expect(await streamEvents('refused')).toHaveLength(before);
  });
});
