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
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { chromiumAvailable, launchChromium } from '@reelstream/testing';
import { currencyExponent } from '@reelstream/money';
import type { Page } from 'playwright-core';
import { writeDataFile, type DataFile } from './cli-harness.js';
import { operatorsInput, runScenario, type ScenarioResult } from './support/scenario.js';
import { cli, REPOSITORY_ROOT } from './support/run.js';

const SCREENSHOT = resolve(REPOSITORY_ROOT, 'test-output', 'analytics-report.png');
const FILTERED_SCREENSHOT = resolve(REPOSITORY_ROOT, 'test-output', 'analytics-report-filtered.png');

/** No script, stylesheet or image from anywhere, and a policy that would refuse one. */
function expectSelfContained(html: string): void {
  expect(html).not.toMatch(/<(script|link|img|iframe|object)\b/i);
  expect(html).not.toMatch(/\b(src|href)=/i);
  expect(html).toContain("default-src 'none'");
}

/** The little of the DOM the page checks read (the test project has no DOM library). */
interface DomNode {
  textContent: string | null;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomNode | null;
  querySelectorAll(selector: string): Iterable<DomNode>;
  getBBox(): { x: number; width: number };
}

const currenciesOf = (elements: DomNode[]) => elements.map((element) => element.getAttribute('data-currency'));

/** Opens the file in Chromium with every request outside it refused, runs `check`, saves a full-page screenshot. */
async function inChromium(file: string, screenshot: string, check: (page: Page) => Promise<void>): Promise<void> {
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
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(`file://${file}`);
    await check(page);
    expect({ errors, requests }).toEqual({ errors: [], requests: [] });
    mkdirSync(resolve(screenshot, '..'), { recursive: true });
    await page.screenshot({ path: screenshot, fullPage: true });
    expect(existsSync(screenshot)).toBe(true);
  } finally {
    await chromium.close();
  }
}

let scenario: ScenarioResult;
let work: string;
let operatorsFile: string;

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

describe('after an e2e run', () => {
  beforeAll(async () => {
    scenario = await runScenario();
    work = mkdtempSync(join(tmpdir(), 'reelstream-reports-'));
    operatorsFile = join(work, 'operators.json');
    writeFileSync(operatorsFile, JSON.stringify(operatorsInput('http://127.0.0.1:9')));
  }, 120_000);
  afterAll(() => {
    for (const dir of [scenario?.dataDir, work]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

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

    it('is one file that names nothing on the network and runs no script', () => {
      expectSelfContained(html);
      expect(html).toContain('<section id="report-agent">');
      expect(html).toContain('casino-kr');
    });

    if (!chromiumAvailable('analyst-reports.e2e', 'the HTML REPORT IN A BROWSER')) return;

    it('shows both currencies apart in Chromium with no request leaving the file, and is saved as a screenshot', async () => {
      await inChromium(join(work, 'report.html'), SCREENSHOT, async (page) => {
        expect(await page.locator('[data-scope="operators"]').textContent()).toBe(
          'all operators (casino-eu, casino-kr)',
        );
        expect(await page.locator('#headline .currency').evaluateAll(currenciesOf)).toEqual(['EUR', 'KRW']);
        // one GGR chart, with its own axis, per currency
        expect(await page.locator('svg.ggr-chart').evaluateAll(currenciesOf)).toEqual(['EUR', 'KRW']);
        expect(await page.locator('svg.ggr-chart g.axis-y').count()).toBe(2);
        const commands = await page
          .locator('svg.latency-chart g.series')
          .evaluateAll((series: DomNode[]) =>
            series.map((g) => `${g.getAttribute('data-operator')} ${g.getAttribute('data-command')}`),
          );
        expect(commands).toEqual(expect.arrayContaining(['casino-eu bet', 'casino-kr win']));
        expect(await page.locator('svg.rtp-chart g.game').count()).toBeGreaterThan(0);
        expect(await page.locator('#report-game-performance tbody tr').count()).toBeGreaterThan(2);
      });
    }, 60_000);
  });
});

/**
 * A manager's page of one operator and a period: a synthetic log (sessions 45 s apart from
 * 2026-11-20 20:00 UTC, casino-seoul in Asia/Seoul, the operator with the bonuses) rendered with
 * --operator and a --from/--to in Seoul time, held against `reelstream replay --format json` with the same filter.
 */
describe('reelstream report --html --operator … --from … --to … of a synthetic log', () => {
  const FILTER = ['--operator', 'casino-seoul', '--from', '2026-11-21 05:10', '--to', '2026-11-21 06:20'];
  const ROWS = 2;
  let data: DataFile;
  let file: string;
  let html: string;
  let expected: Record<string, { rows: Record<string, unknown>[] }>;
  beforeAll(async () => {
    data = await writeDataFile(120);
    file = join(data.dir, 'manager.html');
    const source = ['--source', data.path, '--operators', data.operatorsFile];
    const run = await cli(['report', '--html', file, ...source, ...FILTER, '--rows', String(ROWS)]);
    expect(run).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('wrote ') });
    html = readFileSync(file, 'utf8');
    const replayed = await cli(['replay', ...source, ...FILTER, '--format', 'json', '--no-progress']);
    expect(replayed).toMatchObject({ code: 0, stderr: '' });
    expected = JSON.parse(replayed.stdout) as typeof expected;
  }, 60_000);
  afterAll(() => {
    if (data) rmSync(data.dir, { recursive: true, force: true });
  });

  const minor = (amount: unknown, currency: string) => Math.round(Number(amount) * 10 ** currencyExponent(currency));
  const rowsOf = (report: string) => expected[report]?.rows ?? [];

  it('is self-contained and refuses a bad --rows', async () => {
    expectSelfContained(html);
    const bad = await cli(['report', '--html', file, '--source', data.path, '--rows', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--rows "0"/);
  });

  if (!chromiumAvailable('analyst-reports.e2e', 'the FILTERED HTML REPORT IN A BROWSER')) return;

  it('states its scope, leads with the agent report’s figures, and draws bars, a log latency axis and game names', async () => {
    await inChromium(file, FILTERED_SCREENSHOT, async (page) => {
      // the header: which operator, which period, in which zone
      const scope = async (name: string) => (await page.locator(`[data-scope="${name}"]`).textContent()) ?? '';
      expect(await scope('operators')).toBe('casino-seoul');
      expect(await scope('time-zone')).toBe('Asia/Seoul');
      expect(await scope('period')).toBe(
        '2026-11-21 05:10 to 2026-11-21 06:20 (excluded), UTC 2026-11-20T20:10:00.000Z – 2026-11-20T21:20:00.000Z',
      );
      expect(await scope('filter')).toBe('--operator casino-seoul --from 2026-11-21 05:10 --to 2026-11-21 06:20');

      // the headline figures come first, and are the agent report's of the same filtered log
      const firstSection = await page.locator('body > h2, body > section').first().textContent();
      expect(firstSection).toBe('Headline');
      const agent = rowsOf('agent');
      expect(agent.map((row) => [row['operator'], row['currency']])).toEqual([['casino-seoul', 'KRW']]);
      const [day] = agent;
      const headline = page.locator('#headline .currency[data-currency="KRW"]');
      expect(await page.locator('#headline .currency').count()).toBe(1);
      const attr = (figure: string, name: string) => headline.locator(`[data-figure="${figure}"]`).getAttribute(name);
      expect(Number(await attr('ggr', 'data-minor'))).toBe(minor(day?.['ggr'], 'KRW'));
      expect(minor(day?.['bonusPaid'], 'KRW')).toBeGreaterThan(0);
      expect(Number(await attr('bonus-cost', 'data-minor'))).toBe(minor(day?.['bonusPaid'], 'KRW'));
      expect(Number(await attr('bonus-cost', 'data-notional-minor'))).toBe(minor(day?.['bonusNotional'], 'KRW'));
      expect(Number(await attr('players', 'data-count'))).toBe(day?.['players']);
      expect(await headline.locator('[data-figure="ggr"] .value').textContent()).toBe(`${String(day?.['ggr'])} KRW`);
      const standard = rowsOf('game-performance').filter(
        (row) => row['currency'] === 'KRW' && row['segment'] === 'standard',
      );
      const turnover = standard.reduce((sum, row) => sum + minor(row['turnover'], 'KRW'), 0);
      const wins = standard.reduce((sum, row) => sum + minor(row['wins'], 'KRW'), 0);
      expect(turnover).toBeGreaterThan(0);
      expect(Number(await attr('rtp', 'data-rtp'))).toBeCloseTo(wins / turnover, 12);
      expect(Number(await attr('rtp', 'data-target'))).toBeGreaterThan(0.8);

      // GGR: one chart (one axis) per currency, its bars side by side, summing to the agent report's GGR
      expect(await page.locator('svg.ggr-chart').evaluateAll(currenciesOf)).toEqual(['KRW']);
      const bars = await page.locator('svg.ggr-chart[data-currency="KRW"] rect.bar').evaluateAll((rects: DomNode[]) =>
        rects.map((rect) => {
          const box = rect.getBBox();
          return {
            day: rect.getAttribute('data-day'),
            minor: Number(rect.getAttribute('data-minor')),
            left: box.x,
            right: box.x + box.width,
          };
        }),
      );
      expect(bars.reduce((sum, bar) => sum + bar.minor, 0)).toBe(minor(day?.['ggr'], 'KRW'));
      const sorted = [...bars].sort((a, b) => a.left - b.left);
      sorted.slice(1).forEach((bar, i) => expect(bar.left).toBeGreaterThanOrEqual(sorted[i]?.right ?? Infinity));

      // latency: a log axis (decades evenly spaced) and one series per command, cancel included, each its colour
      const latency = page.locator('svg.latency-chart');
      expect(await latency.getAttribute('data-scale')).toBe('log');
      const ticks = await latency
        .locator('g.axis-y text.tick')
        .evaluateAll((texts: DomNode[]) =>
          texts.map((text) => ({ ms: Number(text.getAttribute('data-ms')), y: Number(text.getAttribute('y')) })),
        );
      expect(ticks.length).toBeGreaterThanOrEqual(3);
      ticks.forEach((tick, i) => expect(tick.ms).toBe((ticks[0]?.ms ?? 0) * 10 ** i));
      const gaps = ticks.slice(1).map((tick, i) => (ticks[i]?.y ?? 0) - tick.y);
      for (const gap of gaps) expect(gap).toBeCloseTo(gaps[0] ?? 0, 6);
      const series = await latency.locator('g.series').evaluateAll((groups: DomNode[]) =>
        groups.map((g) => ({
          command: g.getAttribute('data-command'),
          colour: g.querySelector('polyline')?.getAttribute('stroke'),
          percentiles: [...g.querySelectorAll('circle')].map((c) => c.getAttribute('data-percentile')),
        })),
      );
      const delivered = rowsOf('wallet-delivery').filter((row) => row['p50ms'] !== null && row['p50ms'] !== undefined);
      expect(series.map((s) => s.command).sort()).toEqual(delivered.map((row) => row['command']).sort());
      expect(series.map((s) => s.command)).toEqual(expect.arrayContaining(['bet', 'win', 'cancel']));
      expect(new Set(series.map((s) => s.colour)).size).toBe(series.length);
      for (const s of series) expect(s.percentiles).toEqual(['p50', 'p95', 'p99', 'max']);
      const legend = await latency
        .locator('.legend-item')
        .evaluateAll((items: DomNode[]) => items.map((i) => i.getAttribute('data-label')));
      expect(legend).toEqual(expect.arrayContaining(series.map((s) => s.command)));

      // a game bar's hover text names the game from the catalogue
      const names = new Map(loadCatalogFile().games.map((game) => [game.gameId, game.name]));
      const games = await page.locator('svg.rtp-chart g.game').evaluateAll((groups: DomNode[]) =>
        groups.map((g) => ({
          id: Number(g.getAttribute('data-game-id')),
          title: g.querySelector(':scope > title')?.textContent ?? '',
        })),
      );
      expect(games.length).toBeGreaterThan(0);
      for (const game of games) {
        const name = names.get(game.id);
        expect(name).toBeDefined();
        expect(game.title.startsWith(`${name} (KRW, `)).toBe(true);
      }

      // a table over the cap shows ROWS rows and says how many are left out and where the rest are
      const capped = Object.entries(expected).filter(([, report]) => report.rows.length > ROWS);
      expect(capped.length).toBeGreaterThan(0);
      for (const [name, report] of capped) {
        const section = page.locator(`#report-${name}`);
        expect(await section.locator('tbody tr').count()).toBe(ROWS);
        const more = section.locator('.more');
        expect(Number(await more.getAttribute('data-left-out'))).toBe(report.rows.length - ROWS);
        expect(await more.textContent()).toContain(`${report.rows.length - ROWS} more not shown`);
        expect(await more.textContent()).toContain('reelstream export');
      }
    });
  }, 60_000);
});
