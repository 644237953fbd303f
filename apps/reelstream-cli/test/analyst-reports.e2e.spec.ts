/**
 * The reports of a real e2e run (test/support/scenario.ts) against the operator's own books, and
 * `report --html` in Chromium. The totals test holds the agent and bonus reports to the sandbox's
 * ledger to the cent, per operator, player and currency. The browser steps need Debian's
 * Chromium (/usr/bin/chromium): without it they are not registered — under CI=true that is a
 * failure, elsewhere a loud notice (as the game-page test does).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import Database from 'better-sqlite3';
import { catalogFacts, replay } from '@reelstream/analytics-application';
import { AnalyticsFold, type AgentRow, type BonusOutcomeRow } from '@reelstream/analytics-domain';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { SqliteEventStore } from '@reelstream/eventstore-sqlite';
import { chromiumAvailable, launchChromium } from '@reelstream/testing';
import { operatorsInput, runScenario, type ScenarioResult } from './support/scenario.js';
import { cli, REPOSITORY_ROOT } from './support/run.js';

const SCREENSHOT = resolve(REPOSITORY_ROOT, 'test-output', 'analytics-report.png');

let scenario: ScenarioResult;
let work: string;
let operatorsFile: string;

beforeAll(async () => {
  scenario = await runScenario();
  work = mkdtempSync(join(tmpdir(), 'reelstream-reports-'));
  operatorsFile = join(work, 'operators.json');
  writeFileSync(operatorsFile, JSON.stringify(operatorsInput('http://127.0.0.1:9')));
}, 120_000);
afterAll(() => {
  for (const dir of [scenario?.dataDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

interface Totals {
  bets: number;
  wins: number;
  freeSpinWins: number;
}
const key = (operatorId: string, playerId: string, currency: string) => `${operatorId}/${playerId}/${currency}`;
const add = (map: Map<string, Totals>, at: string, part: Partial<Totals>) => {
  const totals = map.get(at) ?? { bets: 0, wins: 0, freeSpinWins: 0 };
  map.set(at, {
    bets: totals.bets + (part.bets ?? 0),
    wins: totals.wins + (part.wins ?? 0),
    freeSpinWins: totals.freeSpinWins + (part.freeSpinWins ?? 0),
  });
};

/** What the operator's wallet itself holds: money moved by transactions no cancel reverted. */
function ledgerTotals(): Map<string, Totals> {
  const db = new Database(join(scenario.dataDir, 'sandbox.db'), { readonly: true });
  const rows = db
    .prepare(
      `SELECT operator_id, player_id, currency, command, debit_minor, credit_minor,
              json_extract(request_json, '$.bonusId') AS bonus_id
         FROM sandbox_transactions WHERE applied = 1 AND canceled_by IS NULL AND command <> 'cancel'`,
    )
    .all() as {
    operator_id: string;
    player_id: string;
    currency: string;
    debit_minor: number;
    credit_minor: number;
    bonus_id: string | number;
  }[];
  db.close();
  const totals = new Map<string, Totals>();
  for (const row of rows) {
    const free = Number(row.bonus_id) !== 0;
    add(totals, key(row.operator_id, row.player_id, row.currency), {
      bets: row.debit_minor,
      wins: row.credit_minor,
      freeSpinWins: free ? row.credit_minor : 0,
    });
  }
  return totals;
}

/** The agent and bonus-outcome reports of one player, replayed from the data file. */
async function reportTotals(operatorId: string, playerId: string) {
  const store = SqliteEventStore.open(scenario.eventStoreFile);
  const zones = new Map(scenario.operators.map((operator) => [operator.id, operator.timeZone]));
  const fold = new AnalyticsFold({
    filter: { operatorId, playerId },
    catalog: catalogFacts(loadCatalogFile()),
    timeZoneOf: (id) => zones.get(id) ?? 'UTC',
  });
  try {
    await replay({ store, fold });
  } finally {
    await store.close();
  }
  return {
    agent: fold.report('agent').rows as readonly AgentRow[],
    bonuses: fold.report('bonus-outcomes').rows as readonly BonusOutcomeRow[],
  };
}

describe('the reports after the e2e run', () => {
  it('total what the operator’s own ledger holds, to the cent, per operator, player and currency', async () => {
    const ledger = ledgerTotals();
    const reported = new Map<string, Totals>();
    const bonusWins = new Map<string, number>();
    const players = new Set(scenario.ledger.map((row) => `${row.operatorId}/${row.playerId}`));
    for (const player of players) {
      const [operatorId = '', playerId = ''] = player.split('/');
      const { agent, bonuses } = await reportTotals(operatorId, playerId);
      for (const row of agent) {
        add(reported, key(operatorId, playerId, row.currency), {
          bets: row.betsMinor,
          wins: row.winsMinor,
          freeSpinWins: row.freeSpinWinsMinor,
        });
        expect(row.ggrMinor).toBe(row.betsMinor - row.winsMinor);
      }
      for (const row of bonuses) {
        const at = key(operatorId, playerId, row.currency);
        bonusWins.set(at, (bonusWins.get(at) ?? 0) + row.totalWinMinor);
      }
    }
    expect(Object.fromEntries(reported)).toEqual(Object.fromEntries(ledger));
    // every free-spin win the bonus report counts was credited by the operator, and nothing else
    for (const [at, totals] of ledger)
      expect({ at, bonus: bonusWins.get(at) ?? 0 }).toEqual({ at, bonus: totals.freeSpinWins });
    expect([...ledger.values()].some((totals) => totals.freeSpinWins > 0)).toBe(true);
    // both operators and both currencies took part, with money both ways
    expect(new Set([...ledger.keys()].map((at) => at.split('/')[2]))).toEqual(new Set(['EUR', 'KRW']));
  }, 60_000);
});

describe('reelstream report --html', () => {
  let html: string;
  beforeAll(async () => {
    const file = join(work, 'report.html');
    const run = await cli([
      'report',
      '--html',
      file,
      '--source',
      scenario.eventStoreFile,
      '--operators',
      operatorsFile,
    ]);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('wrote ') });
    html = readFileSync(file, 'utf8');
  });

  it('is one file that names nothing on the network: uPlot and the data are inside it', () => {
    expect(html).not.toMatch(/<(script|link|img)[^>]+(src|href)=/i);
    expect(html).toContain("default-src 'none'");
    expect(html).toContain('uPlot');
    expect(html).toContain('<section id="report-agent">');
    expect(html).toContain('casino-kr');
  });

  if (!chromiumAvailable('analyst-reports.e2e', 'the HTML REPORT IN A BROWSER')) return;

  it('draws its three charts in Chromium with no request leaving the file, and is saved as a screenshot', async () => {
    const file = join(work, 'report.html');
    const chromium = await launchChromium({ width: 1280, height: 900 });
    const { browser } = chromium;
    try {
      const requests: string[] = [];
      await browser.route('**/*', (route) => {
        const url = route.request().url();
        if (url.startsWith('file:')) return route.continue();
        requests.push(url);
        return route.abort();
      });
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`file://${file}`);
      await page.waitForSelector('body[data-charts="drawn"]', { timeout: 10_000 });
      expect(await page.locator('.uplot canvas').count()).toBe(3);
      const titles = await page.locator('.uplot .u-title').allTextContents();
      expect(titles).toEqual([
        expect.stringContaining('RTP per game'),
        expect.stringContaining('Daily GGR per operator'),
        expect.stringContaining('Callback latency'),
      ]);
      const legend = (await page.locator('.u-legend').allTextContents()).join(' ');
      for (const label of [
        'measured RTP',
        'target RTP',
        'casino-eu (EUR)',
        'casino-kr (KRW)',
        'casino-eu bet',
        'casino-kr win',
      ])
        expect(legend).toContain(label);
      expect(await page.locator('#report-game-performance tbody tr').count()).toBeGreaterThan(2);
      expect({ errors, requests }).toEqual({ errors: [], requests: [] });
      mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });
      expect(existsSync(SCREENSHOT)).toBe(true);
    } finally {
      await chromium.close();
    }
  }, 60_000);
});
