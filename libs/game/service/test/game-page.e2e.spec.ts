/**
 * The game page in a real browser against the real services: a free-spin bonus registered and a
 * game launched through the gateway API, every free spin played by clicking, then a paid spin; a
 * Regular Bonus Call's badge filling up over steered paid spins until it completes.
 * Needs Debian's Chromium (/usr/bin/chromium; `.ci/run` installs it). Without it the browser
 * steps are not registered: under CI=true that is a failure, elsewhere a loud notice.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromiumAvailable, eventually, launchChromium } from '@reelstream/testing';
import type { Page } from 'playwright-core';
import { Stack } from './support/stack.js';

const SCREENSHOT = resolve(import.meta.dirname, '../../../../test-output/game-page.png');

const stack = Stack.forTests({ regularBonusCall: true });

describe('the game page’s files', () => {
  it('are served with the launch: the page, its script modules and stylesheet, nothing from elsewhere', async () => {
    const { url } = await stack.launch('assets_check', 101);
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const base = new URL(url);
    for (const [asset, type] of [
      ['assets/game.css', 'text/css'],
      ['assets/game.js', 'javascript'],
      ['assets/api.js', 'javascript'],
      ['assets/i18n.js', 'javascript'],
      ['assets/reels.js', 'javascript'],
      ['assets/wheel.js', 'javascript'],
      ['assets/symbols.js', 'javascript'],
    ] as const) {
      const response = await fetch(new URL(asset, base));
      expect({ asset, status: response.status, type: response.headers.get('content-type') ?? '' }).toEqual({
        asset,
        status: 200,
        type: expect.stringContaining(type),
      });
    }
    expect(html).not.toMatch(/https?:\/\//);
    expect((await fetch(new URL('assets/nothing.js', base))).status).toBe(404);
  });
});

describe('the game page in Chromium', () => {
  if (!chromiumAvailable('game-page.e2e', 'the BROWSER STEPS')) return;

  let chromium: Awaited<ReturnType<typeof launchChromium>> | undefined;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    chromium = await launchChromium({ width: 1280, height: 800 });
    page = await chromium.browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await chromium?.close();
  });

  const badge = () => page.locator('#spins-left').textContent();
  /**
   * Waits until the page is idle and the element `id` shows `text` (or, with `differs`, anything
   * else). Runs in the page, which has a DOM this file is not typed with; the page's CSP forbids
   * string evaluation, so it is a function.
   */
  const idleAnd = (id: string, text: string | null, differs = false) =>
    page.waitForFunction(
      ([elementId, expected, negate]) => {
        const doc = (
          globalThis as unknown as {
            document: {
              getElementById(
                id: string,
              ): { dataset: Record<string, string | undefined>; textContent: string | null } | null;
            };
          }
        ).document;
        const shown = doc.getElementById(elementId)?.textContent ?? null;
        return (
          doc.getElementById('app')?.dataset['state'] === 'idle' && (negate ? shown !== expected : shown === expected)
        );
      },
      [id, text, differs] as const,
      { timeout: 10_000 },
    );
  const idleWith = (spinsLeft: number) => idleAnd('spins-left', String(spinsLeft));

  it('names a bonus of another currency as not playable here and plays paid spins (D6 amended)', async () => {
    await stack.registerFreeSpins({
      playerId: 'browser_krw',
      spinAmount: 3,
      callAmount: 50_000,
      baseBetAmount: 200,
      currency: 'KRW',
    });
    const { url } = await stack.launch('browser_krw', 101, { language: 'en' });
    await page.goto(url);
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as {
            document: { getElementById(id: string): { dataset: Record<string, string | undefined> } | null };
          }
        ).document.getElementById('app')?.dataset['state'] === 'idle',
      undefined,
      { timeout: 10_000 },
    );
    expect(await page.locator('#bonus-elsewhere').isVisible()).toBe(true);
    expect(await page.locator('#bonus-elsewhere').textContent()).toBe(
      'You have 3 free spins in KRW: they can be played only in a game opened in KRW. Spins here are paid.',
    );
    expect(await page.locator('#bonus').isVisible()).toBe(false);
    expect(await page.locator('#spin-label').textContent()).toBe('Spin');
    expect(await page.locator('#bet').textContent()).toBe('€0.20');
    expect(pageErrors).toEqual([]);
  });

  it('shows a Regular Bonus Call’s progress over the steered paid spins until it completes (ADR 0012)', async () => {
    const registered = await stack.registerRegularBonus({ playerId: 'browser_rbc', gameIds: [101], callAmount: 0.97 });
    expect(registered.status).toBe(200);
    stack.fund('browser_rbc', 100);
    const { url } = await stack.launch('browser_rbc', 101, { language: 'en' });
    await page.goto(url);
    await idleAnd('spins-total', '€0.97');
    expect(await page.locator('#bonus').isVisible()).toBe(true);
    expect(await page.locator('.bonus-label').textContent()).toBe('Bonus win');
    expect(await badge()).toBe('€0.00');
    expect(await page.locator('#win-so-far').textContent()).toBe('€0.97');
    // Paid spins at the player's bet: the button is not a free spin.
    expect(await page.locator('#spin-label').textContent()).toBe('Spin');
    expect(await page.locator('#bet').textContent()).toBe('€0.20');

    let won = 0;
    for (let spin = 1; spin <= 50 && won < 97; spin++) {
      const lastRound = await page.locator('#round-id').textContent();
      await page.click('#spin');
      await idleAnd('round-id', lastRound, true);
      won += Math.round(Number((await page.locator('#win').textContent())?.replace('€', '')) * 100);
      // The badge: delivered of the target, and what is still to win.
      expect(await badge()).toBe(`€${(won / 100).toFixed(2)}`);
      expect(await page.locator('#win-so-far').textContent()).toBe(`€${((97 - won) / 100).toFixed(2)}`);
    }
    expect(won).toBe(97);
    expect(await page.locator('.bonus-label').textContent()).toBe('Bonus win complete');
    expect(await page.locator('#bonus').getAttribute('class')).toContain('complete');
    expect(await page.locator('#message').textContent()).toBe('Bonus complete: your spins paid €0.97.');
    expect(pageErrors).toEqual([]);
  });

  it('plays a free-spin bonus to completion by clicking, the badge counting down, then a paid spin', async () => {
    const spins = 5;
    const issueId = await stack.registerFreeSpins({
      playerId: 'browser_player',
      gameIds: [201],
      spinAmount: spins,
      baseBetAmount: 0.5,
    });
    stack.fund('browser_player', 100);
    const { url } = await stack.launch('browser_player', 201, { language: 'en' });

    await page.goto(url);
    await idleWith(spins);
    expect(await page.locator('#bonus').isVisible()).toBe(true);
    expect(await page.locator('#spin-label').textContent()).toBe('Free spin');
    expect(await page.locator('#bet').textContent()).toBe('€0.50');
    expect(await page.locator('.reel').count()).toBe(5);

    for (let left = spins - 1; left >= 0; left--) {
      await page.click('#spin');
      await idleWith(left);
      expect(await badge()).toBe(String(left));
    }
    expect(await page.locator('#bonus').getAttribute('class')).toContain('complete');
    expect(await page.locator('#message').textContent()).toMatch(/^Free spins complete: you won €\d+\.\d\d in total\./);
    const status = (await stack.bonusStatus(issueId)).body.data;
    expect(status).toMatchObject({ status: 'completed', spinsUsed: spins, spinsLeft: 0 });
    expect(await page.locator('#win-so-far').textContent()).toBe(`€${status.totalWin.toFixed(2)}`);

    // The bonus is over: the button plays paid spins again, at the chosen bet.
    expect(await page.locator('#spin-label').textContent()).toBe('Spin');
    await page.click('#bet-up');
    expect(await page.locator('#bet').textContent()).toBe('€0.20');
    await page.click('#spin');
    const lastRound = await page.locator('#round-id').textContent();
    await idleAnd('round-id', lastRound, true);
    const transactions = await eventually(() => {
      const found = stack.transactions('browser_player');
      expect(found.map((transaction) => transaction.command)).toEqual([
        ...Array<string>(spins).fill('win'),
        'bet',
        'win',
      ]);
      return found;
    });
    const paidWinMinor = transactions[spins + 1]?.creditMinor ?? 0;
    expect(await page.locator('#win').textContent()).toBe(`€${(paidWinMinor / 100).toFixed(2)}`);
    // The page shows the wallet's answers only: once the wallet answered the last win, the balance it carried.
    await eventually(async () => {
      expect(await page.locator('#balance').textContent()).toBe(
        `€${((stack.balanceMinor('browser_player') ?? 0) / 100).toFixed(2)}`,
      );
      expect(await page.locator('#pending-win').isHidden()).toBe(true);
    });
    expect(pageErrors).toEqual([]);

    mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
    await page.waitForTimeout(3_300);
    // An artefact for people to look at (test-output/), not a check: playwright throws if it cannot write it.
    await page.screenshot({ path: SCREENSHOT });
  });
});
