/**
 * The campaigns and bonus-return reports over a log written through the real SQLite event store
 * (synthetic-campaigns.ts), against figures computed here from what the writer says it wrote: a
 * refused campaign player, a bonus that expired unplayed, one canceled after a spin, a player with
 * two bonuses, a bet timed out and canceled, rounds outside every window, and a second operator
 * with a campaign of the same id.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { AnalyticsFold, type ReplayFilter } from '@reelstream/analytics-domain';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { replay } from '../src/index.js';
import { CAMPAIGN_OPERATORS, writeCampaignLog, type SyntheticCampaignLog } from './synthetic-campaigns.js';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-campaigns-'));
let store: SqliteEventStore;
let written: SyntheticCampaignLog;

beforeAll(async () => {
  store = SqliteEventStore.open(join(dir, 'events.db'), { synchronous: 'NORMAL' });
  written = await writeCampaignLog(store);
});
afterAll(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const zoneOf = (operatorId: string) =>
  CAMPAIGN_OPERATORS.find((operator) => operator.id === operatorId)?.timeZone ?? 'UTC';

async function replayed(settings: { filter?: ReplayFilter; windowDays?: number } = {}) {
  const fold = new AnalyticsFold({
    filter: settings.filter ?? {},
    catalog: new Map(),
    timeZoneOf: zoneOf,
    ...(settings.windowDays === undefined ? {} : { bonusReturnWindowDays: settings.windowDays }),
  });
  await replay({ store, fold, validation: 'strict' });
  return fold;
}

/** The calendar day of an instant in a zone, by Intl directly (the folds use their own cache). */
const dayIn = (at: string, zone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(at),
  );

function expectedCampaigns(log: SyntheticCampaignLog, only: (operatorId: string, playerId: string) => boolean) {
  return log.campaigns
    .map((campaign) => {
      const named = campaign.players.filter((player) => only(campaign.operatorId, player));
      const refused = campaign.refused.filter((player) => only(campaign.operatorId, player.playerId));
      const bonuses = log.bonuses.filter(
        (bonus) =>
          bonus.operatorId === campaign.operatorId &&
          bonus.campaignId === campaign.campaignId &&
          only(bonus.operatorId, bonus.playerId),
      );
      const codes = new Map<string, number>();
      for (const { code } of refused) codes.set(code, (codes.get(code) ?? 0) + 1);
      return {
        operatorId: campaign.operatorId,
        campaignId: campaign.campaignId,
        bonusType: 1,
        currency: campaign.currency,
        players: named.length,
        registered: named.length - refused.length,
        refused: refused.length,
        refusedByCode: [...codes].map(([code, count]) => `${code}=${count}`).join(' '),
        played: bonuses.filter((bonus) => bonus.spinWins.length > 0).length,
        completed: bonuses.filter((bonus) => bonus.end === 'completed').length,
        expired: bonuses.filter((bonus) => bonus.end === 'expired').length,
        canceled: bonuses.filter((bonus) => bonus.end === 'canceled').length,
        endedUnplayed: bonuses.filter((bonus) => bonus.end !== 'completed' && bonus.end && bonus.spinWins.length === 0)
          .length,
        spinsPlayed: bonuses.reduce((sum, bonus) => sum + bonus.spinWins.length, 0),
        winningSpins: bonuses.reduce((sum, bonus) => sum + bonus.spinWins.filter((win) => win > 0).length, 0),
        bonusCostMinor: bonuses.reduce((sum, bonus) => sum + bonus.spinWins.reduce((a, b) => a + b, 0), 0),
      };
    })
    .filter((row) => row.players > 0)
    .sort((a, b) => (a.operatorId < b.operatorId ? -1 : 1));
}

function expectedBonusReturn(log: SyntheticCampaignLog, windowDays: number) {
  const windowMs = windowDays * 86_400_000;
  const lastMs = Date.parse(log.lastAt);
  interface Row {
    operatorId: string;
    cohortDay: string;
    timeZone: string;
    currency: string;
    windowDays: number;
    bonuses: number;
    players: Set<string>;
    bonusCostMinor: number;
    turnoverMinor: number;
    winsMinor: number;
    openWindows: number;
  }
  const rows = new Map<string, Row>();
  const bonuses = [...log.bonuses].sort((a, b) => Date.parse(a.registeredAt) - Date.parse(b.registeredAt));
  for (const bonus of bonuses) {
    const zone = zoneOf(bonus.operatorId);
    const cohortDay = dayIn(bonus.registeredAt, zone);
    const key = `${bonus.operatorId}|${cohortDay}|${bonus.currency}`;
    const row = rows.get(key) ?? {
      operatorId: bonus.operatorId,
      cohortDay,
      timeZone: zone,
      currency: bonus.currency,
      windowDays,
      bonuses: 0,
      players: new Set<string>(),
      bonusCostMinor: 0,
      turnoverMinor: 0,
      winsMinor: 0,
      openWindows: 0,
    };
    rows.set(key, row);
    const startMs = Date.parse(bonus.registeredAt);
    const next = bonuses.find(
      (other) =>
        other.operatorId === bonus.operatorId &&
        other.playerId === bonus.playerId &&
        Date.parse(other.registeredAt) > startMs,
    );
    const endMs = Math.min(startMs + windowMs, next ? Date.parse(next.registeredAt) : Infinity);
    const inWindow = (at: string | undefined) =>
      at !== undefined && Date.parse(at) >= startMs && Date.parse(at) < endMs;
    row.bonuses += 1;
    row.players.add(bonus.playerId);
    row.bonusCostMinor += bonus.spinWins.reduce((a, b) => a + b, 0);
    if (startMs + windowMs > lastMs) row.openWindows += 1;
    for (const round of log.paidRounds) {
      if (round.operatorId !== bonus.operatorId || round.playerId !== bonus.playerId) continue;
      if (inWindow(round.betPaidAt)) row.turnoverMinor += round.betMinor;
      if (inWindow(round.winPaidAt)) row.winsMinor += round.winMinor;
    }
  }
  return [...rows.values()]
    .map(({ players, ...row }) => {
      const ggrMinor = row.turnoverMinor - row.winsMinor;
      return { ...row, players: players.size, ggrMinor, netMinor: ggrMinor - row.bonusCostMinor };
    })
    .sort((a, b) => (`${a.operatorId}|${a.cohortDay}` < `${b.operatorId}|${b.cohortDay}` ? -1 : 1));
}

describe('the campaigns report', () => {
  it('counts each campaign per operator: named, registered, refused by code, played, ended, spins and cost', async () => {
    const fold = await replayed();
    const rows = fold.report('campaigns').rows;
    expect(rows).toEqual(expectedCampaigns(written, () => true));
    // The edge cases are in the log: a refusal, an expiry without a spin, a cancel after one.
    expect(rows.find((row) => row.operatorId === 'casino-eu')).toMatchObject({
      refused: 1,
      refusedByCode: 'ACTIVE_BONUS_EXISTS=1',
      expired: 1,
      endedUnplayed: 1,
      canceled: 1,
      completed: 1,
    });
  });

  it('keeps to an operator and to a player (the refused one too)', async () => {
    const seoul = await replayed({ filter: { operatorId: 'casino-seoul' } });
    expect(seoul.report('campaigns').rows).toEqual(
      expectedCampaigns(written, (operatorId) => operatorId === 'casino-seoul'),
    );
    const pd = await replayed({ filter: { operatorId: 'casino-eu', playerId: 'pd' } });
    expect(pd.report('campaigns').rows).toEqual(
      expectedCampaigns(written, (operatorId, playerId) => operatorId === 'casino-eu' && playerId === 'pd'),
    );
    expect(pd.report('campaigns').rows[0]).toMatchObject({ players: 1, registered: 0, refused: 1 });
  });
});

describe('a time range', () => {
  // From a day after the campaigns started: only pb's expiry (day 3) of the campaigns, and pa's second bonus (day 2).
  const fromMs = Date.parse('2026-11-21T10:00:00.000Z');
  const filter: ReplayFilter = { rangeOf: () => ({ fromMs }) };

  it('counts what happened to a campaign in the range, the call registered before it included', async () => {
    const rows = (await replayed({ filter })).report('campaigns').rows;
    const bonuses = written.bonuses.filter((bonus) => bonus.campaignId === 'autumn' && bonus.end === 'expired');
    expect(bonuses.map((bonus) => bonus.playerId)).toEqual(['pb']);
    expect(rows).toEqual([
      expect.objectContaining({
        operatorId: 'casino-eu',
        players: 0,
        registered: 0,
        refused: 0,
        played: 0,
        expired: 1,
        endedUnplayed: 1,
        completed: 0,
        canceled: 0,
        bonusCostMinor: 0,
      }),
    ]);
  });

  it('makes cohorts of the bonuses registered in the range', async () => {
    const rows = (await replayed({ filter })).report('bonus-return').rows;
    expect(rows).toEqual([
      expect.objectContaining({
        operatorId: 'casino-eu',
        bonuses: 1,
        players: 1,
        turnoverMinor: 400 + 600,
        winsMinor: 800,
      }),
    ]);
  });
});

describe('the bonus-return report', () => {
  it.each([7, 1, 30])(
    'counts the paid play of bonus players in the %i days after each bonus, a later bonus taking over',
    async (windowDays) => {
      const fold = await replayed({ windowDays });
      expect(fold.report('bonus-return').rows).toEqual(expectedBonusReturn(written, windowDays));
    },
  );

  it('leaves out play before the bonus, after its window, and a canceled bet', async () => {
    const rows = (await replayed()).report('bonus-return').rows;
    const eu = rows.filter((row) => row.operatorId === 'casino-eu');
    // pa's first window: the 100 bet and its 250 win (the 200 bet timed out and was canceled), pc's 300 bet and 100 win;
    // pa's second bonus: 400/800 and 600/0. The 500 bet before any bonus and pc's 700 after its window are out.
    expect(eu.reduce((sum, row) => sum + row.turnoverMinor, 0)).toBe(100 + 300 + 400 + 600);
    expect(eu.reduce((sum, row) => sum + row.winsMinor, 0)).toBe(250 + 100 + 800);
    expect(eu.reduce((sum, row) => sum + row.bonuses, 0)).toBe(4);
  });
});
