/**
 * The replay's read path on a real SQLite event store: what the speed work must
 * not weaken. Events of an older schema version are upcast in the default (trusted) mode, `strict`
 * refuses an event its contract does not accept, and the page size changes nothing in the reports.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { campaignEventToAppend, campaignStream, playerBonusStream, sessionStream } from '@reelstream/contracts';
import { AnalyticsFold, REPORT_NAMES } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { DEFAULT_PAGE_SIZE, replay, ReplayProjections, UnreadableEventError } from '../src/index.js';
import { writeSyntheticLog } from './synthetic-log.js';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-replay-'));
let files = 0;
const stores: SqliteEventStore[] = [];

afterAll(async () => {
  await Promise.all(stores.map((store) => store.close()));
  rmSync(dir, { recursive: true, force: true });
});

function openStore(): SqliteEventStore {
  const store = SqliteEventStore.open(join(dir, `events-${++files}.db`), { synchronous: 'NORMAL' });
  stores.push(store);
  return store;
}

const newFold = () => new AnalyticsFold({ filter: {}, catalog: new Map(), timeZoneOf: () => 'UTC' });
const metadata = (schemaVersion: number, occurredAt: string) => ({
  operatorId: 'casino-eu',
  occurredAt,
  schemaVersion,
});

describe('replay over the SQLite event store', () => {
  it('upcasts a BonusCallRegistered of schema version 0 (one gameId) in the default mode', async () => {
    const store = openStore();
    const registeredAt = '2026-11-01T10:00:00.000Z';
    // Appended as an old writer did, past the contracts (eventToAppend writes the current version only).
    await store.append(
      playerBonusStream('casino-eu', 'p_old'),
      [
        {
          type: 'BonusCallRegistered',
          data: {
            issueId: 7001,
            platformId: 'bonus-7001',
            operatorId: 'casino-eu',
            playerId: 'p_old',
            providerId: 1,
            gameId: 101,
            bonusType: 1,
            currency: 'EUR',
            callAmountMinor: 10_000,
            spinAmount: 3,
            baseBetAmountMinor: 100,
            expireAt: '2026-11-02T10:00:00.000Z',
            registeredAt,
          },
          metadata: metadata(0, registeredAt),
        },
      ],
      { expectedRevision: 'no_stream' },
    );
    const fold = newFold();
    const projections = new ReplayProjections();
    await replay({ store, fold, projections });

    const [row] = fold.report('bonus-outcomes').rows;
    expect(row).toMatchObject({ issueId: 7001, gameIds: '101', spinsGranted: 3, status: 'active' });
    expect(projections.bonusRecords()).toEqual([expect.objectContaining({ issueId: 7001, gameIds: [101] })]);
  });

  it('reads past a campaign stream, whose request and progress are not bonus facts, in either mode', async () => {
    const store = openStore();
    const at = '2026-11-01T09:00:00.000Z';
    const started = campaignEventToAppend(
      {
        type: 'CampaignStarted',
        data: {
          campaignId: 'spring',
          requestHash: 'a'.repeat(64),
          requested: { providerId: 1, gameIds: [101], bonusType: 2, callAmount: 10, expireAt: '2026-11-02 10:00:00' },
          terms: {
            providerId: 1,
            gameIds: [101],
            bonusType: 2,
            currency: 'EUR',
            callAmountMinor: 1_000,
            expireAt: '2026-11-02T10:00:00.000Z',
          },
          players: ['p1', 'p2'],
          startedAt: at,
        },
      },
      { correlationId: 'req-1', causationId: 'req-1', operatorId: 'casino-eu', occurredAt: at },
    );
    await store.append(campaignStream('casino-eu', 'spring'), [started], { expectedRevision: 'no_stream' });
    for (const validation of ['trusted', 'strict'] as const) {
      const fold = newFold();
      expect(await replay({ store, fold, validation })).toMatchObject({ events: 1 });
      expect(fold.report('bonus-outcomes').rows).toEqual([]);
    }
  });

  it('checks every event against its contract under strict validation, and names the one it refuses', async () => {
    const store = openStore();
    const token = `tok_00000001_${'y'.repeat(16)}`;
    const endedAt = '2026-11-01T11:00:00.000Z';
    // An empty reason: the contract requires one, the folds never read it.
    await store.append(
      sessionStream(token),
      [{ type: 'GameSessionEnded', data: { token, reason: '', endedAt }, metadata: metadata(1, endedAt) }],
      { expectedRevision: 'no_stream' },
    );

    await expect(replay({ store, fold: newFold() })).resolves.toMatchObject({ events: 1, position: '1' });
    const refused = replay({ store, fold: newFold(), validation: 'strict' });
    await expect(refused).rejects.toThrow(UnreadableEventError);
    await expect(replay({ store, fold: newFold(), validation: 'strict' })).rejects.toThrow(
      /position 1 \(session-tok_00000001_y+\).*reason/,
    );
  });

  it('refuses an event type the contracts do not know, in either mode', async () => {
    const store = openStore();
    await store.append('round-1', [{ type: 'RoundTeleported', data: { roundId: 1 } }], { expectedRevision: 'any' });
    await expect(replay({ store, fold: newFold() })).rejects.toThrow(/RoundTeleported/);
    await expect(replay({ store, fold: newFold(), validation: 'strict' })).rejects.toThrow(UnreadableEventError);
  });

  it('gives the same reports, strict or not, whatever the page size, and reports every event read', async () => {
    const store = openStore();
    const written = await writeSyntheticLog(store, {
      operators: [{ id: 'casino-eu', currency: 'EUR', timeZone: 'Europe/Berlin' }],
      sessions: 12,
      roundsPerSession: 4,
      start: '2026-11-01T00:00:00.000Z',
      seed: 3,
    });
    const reportsOf = async (options: { pageSize?: number; validation?: 'strict' }) => {
      const fold = newFold();
      const pages: number[] = [];
      const done = await replay({ store, fold, ...options, onProgress: ({ events }) => pages.push(events) });
      expect(done.events).toBe(written.events);
      expect(pages.at(-1)).toBe(written.events);
      return { pages: pages.length, reports: JSON.stringify(REPORT_NAMES.map((name) => fold.report(name))) };
    };

    const whole = await reportsOf({});
    const paged = await reportsOf({ pageSize: 7 });
    const strict = await reportsOf({ pageSize: 7, validation: 'strict' });
    expect(whole.pages).toBe(Math.floor(written.events / DEFAULT_PAGE_SIZE) + 1);
    expect(paged.pages).toBe(Math.floor(written.events / 7) + 1);
    expect(paged.reports).toBe(whole.reports);
    expect(strict.reports).toBe(whole.reports);
    expect(whole.reports).toContain('casino-eu');
  });
});
