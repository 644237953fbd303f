/**
 * The operator console in Debian's Chromium against the platform as `npm start` runs it (one
 * process, its sandbox as the operators' wallet), with two operators: the console signed in as one
 * finds a bonus and cancels it, starts a campaign from an uploaded list and watches it complete,
 * opens a round, re-drives dead-lettered wins once the sandbox answers again, and reads the wallet
 * health; a wrong token is refused with the API's code, and the other operator's ids show nothing.
 * Screenshots go to test-output/console/ (gitignored), for people to look at.
 * Without /usr/bin/chromium the browser steps are not registered: under CI=true that is a failure.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eventToAppend, webhookLetterStream } from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { chromiumAvailable, eventually, freePort, launchChromium } from '@reelstream/testing';
import type { Page } from 'playwright-core';
import { call, expectOk, OperatorClient, PlayerClient, type OperatorAccount } from './support/clients.js';
import { oneProcess, type RunningPlatform } from './support/topologies.js';

jest.setTimeout(120_000);

const SCREENSHOTS = resolve(import.meta.dirname, '../../../test-output/console');

const account = (id: string): OperatorAccount => ({
  id,
  token: `${id}-api-token-0123456789abcdef`,
  currency: 'EUR',
  timeZone: 'Europe/Berlin',
});
const OURS = account('console-a');
const THEIRS = account('console-b');

const operatorsJson = (sandboxPort: number) =>
  JSON.stringify(
    [OURS, THEIRS].map((operator) => ({
      id: operator.id,
      name: `Casino ${operator.id}`,
      apiToken: operator.token,
      callbackUrl: `http://127.0.0.1:${sandboxPort}/wallet/${operator.id}`,
      webhookUrl: `http://127.0.0.1:${sandboxPort}/webhooks/${operator.id}`,
      signingSecret: `${operator.id}-signing-secret-0123456789`,
      currency: operator.currency,
      timeZone: operator.timeZone,
    })),
  );

/**
 * A bonus webhook of `operatorId` given up after its ten attempts, recorded in the platform's event
 * log as the wallet-dispatcher records it (`webhookLetter-{operatorId}-{eventId}`). Written here,
 * not waited for: the dispatcher's own ten attempts take about four minutes of backoff.
 */
async function writeWebhookLetter(dataDir: string, operatorId: string, playerId: string): Promise<string> {
  const eventId = `bw-${randomUUID()}`;
  const at = new Date().toISOString();
  const bonusId = 246_000_000_000_001;
  const store = SqliteEventStore.open(join(dataDir, 'reelstream.db'));
  try {
    const event = eventToAppend(
      {
        type: 'WebhookDeadLettered',
        data: {
          operatorId,
          webhook: {
            eventId,
            type: 'bonus.registered',
            bonusId,
            playerId,
            sequence: 0,
            occurredAt: at,
            status: 'active',
            currency: 'EUR',
            spinsUsed: 0,
            totalWin: 0,
          },
          key: `${operatorId}:${bonusId}`,
          attempts: 10,
          lastError: 'HTTP 503',
          at,
        },
      },
      { correlationId: randomUUID(), causationId: randomUUID(), operatorId, occurredAt: at },
    );
    await store.append(webhookLetterStream(operatorId, eventId), [event], { expectedRevision: 'no_stream' });
  } finally {
    await store.close();
  }
  return eventId;
}

describe('the operator console', () => {
  let dataDir: string;
  let platform: RunningPlatform | undefined;
  const current = () => {
    if (!platform) throw new Error('the platform did not start');
    return platform;
  };
  const ours = new OperatorClient(() => current().gatewayUrl, OURS);
  const theirs = new OperatorClient(() => current().gatewayUrl, THEIRS);

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'reelstream-console-'));
    const sandboxPort = await freePort();
    platform = await oneProcess.start(dataDir, {
      env: { SANDBOX_PORT: String(sandboxPort), OPERATORS_JSON: operatorsJson(sandboxPort) },
    });
  }, 120_000);

  afterAll(async () => {
    if (platform) await platform.stop('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is served at /console, named by the banner, with the game page’s CSP and its assets beside it', async () => {
    expect(current().banner).toContain(`Operator console  ${current().gatewayUrl}/console `);
    // The API reference (/docs renders /openapi.json) links to it.
    const openApi = (await (await fetch(`${current().gatewayUrl}/openapi.json`)).json()) as {
      info: { description: string };
    };
    expect(openApi.info.description).toContain('[operator console](/console/)');
    const page = await fetch(`${current().gatewayUrl}/console/`);
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The game page's policy, directive for directive, but for who may frame it.
    const launched = await call('POST', `${current().gatewayUrl}/v1/game/launch`, {
      token: OURS.token,
      json: {
        playerId: 'console_csp',
        providerId: 1,
        gameId: 101,
        language: 'en',
        returnUrl: 'https://casino.example/',
        isStreamer: false,
      },
    });
    const gamePage = await fetch(String(expectOk(launched, 'launch').body.data));
    const directives = (policy: string) =>
      policy
        .split(';')
        .map((directive) => directive.trim())
        .filter((directive) => !directive.startsWith('frame-ancestors'));
    expect(directives(csp)).toEqual(directives(gamePage.headers.get('content-security-policy') ?? ''));
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
    for (const asset of ['console.js', 'api.js', 'dom.js', 'i18n.js', 'charts.js', 'console.css']) {
      const response = await fetch(`${current().gatewayUrl}/console/assets/${asset}`);
      expect({ asset, status: response.status }).toEqual({ asset, status: 200 });
    }
    expect((await fetch(`${current().gatewayUrl}/console/assets/nothing.js`)).status).toBe(404);
    const bare = await fetch(`${current().gatewayUrl}/console`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/console/']);
  });

  describe('in Chromium', () => {
    if (!chromiumAvailable('console.e2e', 'the CONSOLE BROWSER STEPS')) return;

    let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
    let page: Page;
    const pageErrors: string[] = [];
    const cspViolations: string[] = [];

    beforeAll(async () => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      chromium = await launchChromium({ width: 1280, height: 800 });
      page = await chromium.browser.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('console', (message) => {
        if (/Content.Security.Policy/i.test(message.text())) cspViolations.push(message.text());
      });
    });

    afterAll(async () => {
      await chromium?.close();
    });

    const text = async (selector: string) => (await page.locator(selector).textContent()) ?? '';
    /** Waits until `selector`'s text matches `pattern`; returns it. */
    const shows = (selector: string, pattern: RegExp, timeoutMs = 15_000) =>
      eventually(async () => {
        const shown = await text(selector);
        expect(shown).toMatch(pattern);
        return shown;
      }, timeoutMs);
    const screenshot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    const go = async (view: string) => {
      await page.click(`.tabs a[data-view="${view}"]`);
      await eventually(async () => expect(await page.locator(`#view-${view}`).isVisible()).toBe(true));
    };

    it('refuses a wrong token with the API’s code and message, then signs in by keyboard alone', async () => {
      await page.goto(`${current().gatewayUrl}/console/`);
      await eventually(async () => expect(await page.locator('#signin').getAttribute('data-state')).toBe('ready'));
      // The token field has the focus: type, Enter.
      await page.keyboard.type('not-the-token-of-anyone-0000');
      await page.keyboard.press('Enter');
      expect(await shows('#signin-error', /UNAUTHORIZED/)).toMatch(/^Sign-in refused — UNAUTHORIZED: .+/);
      await screenshot('01-wrong-token');
      await page.fill('#token', OURS.token);
      await page.focus('#token');
      await page.keyboard.press('Tab'); // the language
      await page.keyboard.press('Tab'); // Sign in
      expect(
        await page.evaluate(
          () => (globalThis as unknown as { document: { activeElement: { id: string } } }).document.activeElement.id,
        ),
      ).toBe('signin-button');
      await page.keyboard.press('Enter');
      await eventually(async () => expect(await page.locator('#app').isVisible()).toBe(true));
      // The token is in this tab's sessionStorage only: no cookie, nothing in the URL.
      expect(await chromium?.browser.cookies()).toEqual([]);
      expect(page.url()).not.toContain(OURS.token);
    });

    it('finds a bonus by player and cancels it; the API confirms the cancel', async () => {
      const issueId = await ours.registerFreeSpins({ playerId: 'console_p1', spins: 10 });
      await go('bonuses');
      await page.fill('#filter-player', 'console_p1');
      await page.click('#bonus-filter button[type=submit]');
      await shows('#status', /^1 bonus calls shown\.$/);
      await page.click(`#bonus-list [data-issue="${issueId}"]`);
      await shows('#bonus-detail h3', new RegExp(`Bonus call ${issueId}`));
      expect(await text('#bonus-detail dl')).toContain('0 of 10 played, 10 left');
      await page.click('#bonus-cancel');
      await page.click('#bonus-cancel-confirm');
      await shows('#status', new RegExp(`^Bonus call ${issueId} is canceled\\.$`));
      await shows('#bonus-detail dl', /canceled/);
      expect(await text('#bonus-detail .history')).toMatch(/registered[\s\S]*canceled/);
      expect(expectOk(await ours.bonus(issueId), 'read').body.data.status).toBe('canceled');
      await screenshot('02-bonus-canceled');
    });

    it('shows nothing of another operator: its bonus and round ids are not found, its players have no bonuses', async () => {
      const theirIssue = await theirs.registerFreeSpins({ playerId: 'console_shared', spins: 3 });
      const token = await theirs.launch('console_shared');
      const spin = expectOk(
        await new PlayerClient(() => current().gameUrl, token).spin({ issueId: theirIssue }),
        'spin',
      );
      const theirRound = Number(spin.body.data.roundId);

      await go('bonuses');
      await page.fill('#bonus-lookup', String(theirIssue));
      await page.click('#bonus-lookup-form button[type=submit]');
      await shows('#status', /BONUS_NOT_FOUND/);
      expect(await page.locator('#bonus-detail').isVisible()).toBe(false);
      await page.fill('#filter-player', 'console_shared');
      await page.click('#bonus-filter button[type=submit]');
      await shows('#status', /^0 bonus calls shown\.$/);
      expect(await text('#bonus-list tbody')).toBe('Nothing found.');

      await go('player');
      await page.fill('#round-lookup', String(theirRound));
      await page.click('#round-lookup-form button[type=submit]');
      expect(await shows('#status', /ROUND_NOT_FOUND/)).toContain(`No round ${theirRound} exists for this operator.`);
      await page.fill('#player-id', 'console_shared');
      await page.click('#player-form button[type=submit]');
      await shows('#status', /^Player console_shared: 0 bonus calls, 0 rounds\.$/);
      await screenshot('03-other-operator-not-found');
    });

    it('starts a campaign from an uploaded list and watches it complete, with the refused player', async () => {
      // console_busy has an active bonus: the campaign refuses it as a single registration would.
      await ours.registerFreeSpins({ playerId: 'console_busy', spins: 5 });
      await go('campaigns');
      await page.fill('#campaign-id', 'spring-26');
      // A list the API refuses: the status line shows its code, message and which player.
      await page.fill('#campaign-players', 'console_c1\nconsole-c2');
      await page.click('#campaign-form button[type=submit]');
      expect(await shows('#status', /VALIDATION_FAILED/)).toMatch(
        /^Failed — VALIDATION_FAILED: .+ \(players\[1\]: playerId must be 1–50 characters of A–Z, a–z, 0–9 or _\)$/,
      );
      await page.setInputFiles('#campaign-file', {
        name: 'players.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('playerId,segment\nconsole_c1,vip\nconsole_c2,new\nconsole_c3,new\nconsole_busy,vip\n'),
      });
      await shows('#status', /^4 players read from players\.csv\.$/);
      expect(await page.inputValue('#campaign-players')).toBe('console_c1\nconsole_c2\nconsole_c3\nconsole_busy');
      await page.click('#campaign-form button[type=submit]');
      await shows('#status', /^Campaign spring-26 is complete: 3 registered, 1 refused\.$/, 30_000);
      expect(await text('#campaign-state')).toBe('completed 3 registered, 1 refused, 0 pending of 4');
      expect(await text('#campaign-refusals tbody')).toContain('console_busyACTIVE_BONUS_EXISTS');
      const progress = expectOk(await ours.get('/v1/bonus-call/campaigns/spring-26'), 'campaign').body.data;
      expect(progress).toMatchObject({ state: 'completed', registered: 3, refused: 1 });
      await screenshot('04-campaign-complete');
    });

    it('opens a round whose wins the sandbox refused, re-drives them once it answers again, and shows the wallet health', async () => {
      const sandbox = current().sandboxUrl;
      const fault = await call('POST', `${sandbox}/admin/faults`, {
        json: { operatorId: OURS.id, playerId: 'console_p3', command: 'win', httpStatus: 503 },
      });
      expect(fault.status).toBe(201);
      const issueId = await ours.registerFreeSpins({ playerId: 'console_p3', spins: 2 });
      const player = new PlayerClient(() => current().gameUrl, await ours.launch('console_p3'));
      const rounds: number[] = [];
      for (let spin = 0; spin < 2; spin++)
        rounds.push(Number(expectOk(await player.spin({ issueId }), 'spin').body.data.roundId));
      // Both wins are dead-lettered after their three attempts.
      await eventually(async () => {
        const letters = expectOk(await ours.get('/v1/wallet/dead-letters'), 'letters').body.data.items as unknown[];
        expect(letters).toHaveLength(2);
      }, 30_000);

      // The player: its bonus, its rounds; the first round with its win dead-lettered after 3 attempts.
      await go('player');
      await page.fill('#player-id', 'console_p3');
      await page.click('#player-form button[type=submit]');
      await shows('#status', /^Player console_p3: 1 bonus calls, 2 rounds\.$/);
      await page.click(`#player-rounds [data-round="${rounds[0]}"]`);
      await shows('#round-detail h3', new RegExp(`Round ${rounds[0]}`));
      const round = await text('#round-detail tbody');
      expect(round).toContain('dead-lettered');
      expect(round).toContain('HTTP 503');
      expect(await text('#round-detail')).toContain('free spin');
      // A game launched for this test player: the link opens the game page.
      await page.click('#launch-form button[type=submit]');
      await shows('#status', /^Lotus Garden launched for console_p3: open the link\.$/);
      expect(await page.getAttribute('#launch-link', 'href')).toMatch(/^http:\/\/.+[?&]token=/);
      await screenshot('05-round-dead-lettered');

      // The sandbox recovers; the first win is re-driven alone, then all shown (the first again: already applied).
      expect((await call('DELETE', `${sandbox}/admin/faults`)).status).toBe(204);
      await go('letters');
      await eventually(async () => expect(await page.locator('#dead-wins [data-redrive]').count()).toBe(2));
      const first = await page.locator('#dead-wins [data-redrive]').first().getAttribute('data-redrive');
      await page.click(`#dead-wins [data-redrive="${first}"]`);
      await shows('#status', /^Re-drive: 1 applied, 0 already applied, 0 not applied\.$/, 30_000);
      expect(await text(`#dead-wins [data-transaction="${first}"]`)).toBe('Delivered: your wallet applied it.');
      await page.click('#wins-redrive-all');
      await shows('#status', /^Re-drive: 1 applied, 1 already applied, 0 not applied\.$/, 30_000);
      await screenshot('06-dead-letters-redriven');
      await page.click('#wins-refresh');
      await shows('#dead-wins tbody', /^Nothing is dead-lettered\.$/);
      const transactions = expectOk(await ours.get('/v1/transactions?playerId=console_p3'), 'transactions').body.data
        .items as { command: string; status: string }[];
      expect(transactions.filter((tx) => tx.command === 'win').map((tx) => tx.status)).toEqual([
        'succeeded',
        'succeeded',
      ]);

      // The wallet health: the six refused win callbacks, then the two delivered by the re-drives.
      await go('health');
      await shows('#status', /^Wallet health updated\.$/);
      const hourWins = page.locator('table.health[data-window="hour"] tbody tr', { hasText: /^win/ });
      const cells = await hourWins.locator('td').allTextContents();
      expect(cells.slice(0, 3)).toEqual(['win', '8', '25.0 %']);
      expect(cells[7]).toBe('NO_VALID_ANSWER × 6');
      expect(await page.locator('#health-view svg.chart').count()).toBe(2);
      expect(await page.locator('#health-view svg.chart rect.bar-failed').count()).toBeGreaterThan(0);
      await screenshot('07-wallet-health');
    });

    it('lists a dead-lettered webhook, re-drives it, and says so when all shown are sent again', async () => {
      const eventId = await writeWebhookLetter(current().dataDir, OURS.id, 'console_p1');
      await writeWebhookLetter(current().dataDir, THEIRS.id, 'console_p1');
      await go('bonuses');
      await go('letters');
      await eventually(async () => expect(await page.locator('#dead-hooks [data-redrive-hook]').count()).toBe(1));
      expect(await text('#dead-hooks tbody')).toContain(eventId);
      await page.click(`#dead-hooks [data-redrive-hook="${eventId}"]`);
      await shows('#status', /^Webhooks: 1 sent again, 0 failed\.$/);
      expect(await text('#dead-hooks tbody')).toContain('Sent again.');
      await page.click('#hooks-redrive-all');
      await shows('#status', /^Webhooks: 0 sent again, 0 failed\.$/);
      expect(await text('#dead-hooks tbody')).toContain('Already sent again before.');
      await screenshot('07b-webhook-redriven');
      // The other operator's letter was never shown, and still stands.
      const theirLetters = expectOk(await theirs.get('/v1/webhooks/dead-letters'), 'their letters').body.data
        .items as unknown[];
      expect(theirLetters).toHaveLength(1);
    });

    it('speaks the game page’s languages, and fits a tablet', async () => {
      await page.selectOption('#language', 'ko');
      expect(await text('.tabs a[data-view="health"]')).toBe('지갑 상태');
      expect(await page.getAttribute('html', 'lang')).toBe('ko');
      // German for the tablet's picture: the test machine may have no CJK fonts to draw Korean with.
      await page.selectOption('#language', 'de');
      expect(await text('.tabs a[data-view="letters"]')).toBe('Unzustellbares');
      await page.setViewportSize({ width: 820, height: 1180 });
      for (const view of ['bonuses', 'campaigns', 'player', 'letters', 'health']) {
        await go(view);
        const overflow = await page.evaluate(() => {
          const root = (
            globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }
          ).document.documentElement;
          return root.scrollWidth - root.clientWidth;
        });
        expect({ view, overflow }).toEqual({ view, overflow: 0 });
      }
      await shows('#status', /^Wallet-Zustand aktualisiert\.$/);
      await screenshot('08-tablet-german');
      await page.selectOption('#language', 'en');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(pageErrors).toEqual([]);
      expect(cspViolations).toEqual([]);
    });
  });
});
