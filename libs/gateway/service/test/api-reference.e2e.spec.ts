/**
 * `/docs` in a real browser against a running gateway: Scalar's API reference, loaded only from
 * the gateway (every other request is refused and recorded, so the page works offline), lists
 * every operation of /openapi.json, and "try it" sends a real request to this gateway. Needs
 * Debian's Chromium (`@reelstream/testing`'s `chromiumAvailable` says what happens without it).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chromiumAvailable, launchChromium } from '@reelstream/testing';
import type { BrowserContext, Page } from 'playwright-core';
import { startHarness, type Harness } from './support/harness.js';
import { TOKENS } from './support/operators.js';

const SCREENSHOT = resolve(import.meta.dirname, '../../../../test-output/api-reference.png');
const TRY_IT_SCREENSHOT = resolve(import.meta.dirname, '../../../../test-output/api-reference-try-it.png');

interface Operation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness();
});

afterAll(async () => {
  await harness?.close();
});

describe('/docs', () => {
  it('is a page of the gateway’s own scripts, which load nothing from elsewhere', async () => {
    const page = await fetch(`${harness.gateway.url}/docs`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    const scripts = [...html.matchAll(/<script src="([^"]+)"/g)].map((match) => match[1]);
    expect(scripts).toEqual(['/docs/scalar.js', '/docs/init.js']);
    for (const script of scripts) {
      const response = await fetch(`${harness.gateway.url}${script}`);
      expect({ script, status: response.status, type: response.headers.get('content-type') }).toEqual({
        script,
        status: 200,
        type: expect.stringMatching(/^text\/javascript/),
      });
    }
    const init = await (await fetch(`${harness.gateway.url}/docs/init.js`)).text();
    expect(init).toContain('"url":"/openapi.json"');
    expect(init).toContain('"withDefaultFonts":false');
  });
});

describe('/docs in Chromium', () => {
  if (!chromiumAvailable('api-reference.e2e', 'the /docs BROWSER TEST')) return;

  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  const elsewhere: string[] = [];
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    ({ browser, close: closeBrowser } = await launchChromium({ width: 1440, height: 900 }));
    const origin = new URL(harness.gateway.url).origin;
    await browser.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith(`${origin}/`) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
      elsewhere.push(url);
      return route.abort();
    });
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
    });
    await page.goto(`${harness.gateway.url}/docs`);
  }, 60_000);

  afterAll(async () => {
    await closeBrowser?.();
  });

  it('lists every operation of /openapi.json, with no error and no request leaving the gateway', async () => {
    const document = (await (await fetch(`${harness.gateway.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; summary: string }>>;
    };
    const operations: Operation[] = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({
        method,
        path,
        operationId: operation.operationId,
        summary: operation.summary,
      })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(7);
    const sidebar = page.locator('nav, aside').first();
    await sidebar.getByText(operations[0]?.summary ?? '', { exact: true }).waitFor({ timeout: 30_000 });
    // Every operation is an entry of the sidebar, under its summary, and is found by searching its path.
    const listed = await sidebar.innerText();
    expect(operations.filter((operation) => !listed.includes(operation.summary))).toEqual([]);
    const notFound: string[] = [];
    for (const operation of operations) {
      await page.keyboard.press('Control+k');
      const search = page.getByRole('combobox', { name: 'Enter search query' });
      await search.waitFor({ state: 'visible' });
      await search.fill(operation.path);
      // A hit's id ends in METHOD + path, e.g. `search-result-v1/tag/catalog/GET/v1/games`.
      const hit = page.locator(`[role="option"][id$="/${operation.method.toUpperCase()}${operation.path}"]`);
      const found = await hit.waitFor({ state: 'visible', timeout: 5_000 }).then(
        () => true,
        () => false,
      );
      if (!found) notFound.push(operation.operationId);
      await page.keyboard.press('Escape');
      await search.waitFor({ state: 'hidden' });
    }
    expect(notFound).toEqual([]);
    // "Try it" goes to the gateway the page came from, with the API token the operator types in.
    expect(await page.locator('body').innerText()).toContain(harness.gateway.url);
    mkdirSync(resolve(SCREENSHOT, '..'), { recursive: true });
    await page.screenshot({ path: SCREENSHOT });
    expect({ pageErrors, cspViolations, elsewhere }).toEqual({ pageErrors: [], cspViolations: [], elsewhere: [] });
  }, 60_000);

  it('sends "Test Request" to this gateway with the token typed in, and shows its answer', async () => {
    await page.getByPlaceholder('Token').first().fill(TOKENS.a);
    // Sections render as they come into view: the sidebar entry brings this one.
    await page.locator('nav, aside').first().getByText('List game providers', { exact: true }).click();
    const section = page.locator('section[id$="GET/v1/providers"]');
    await section.getByRole('button', { name: /test request/i }).click();
    const client = page.getByRole('dialog');
    const answered = page.waitForResponse((response) => response.url() === `${harness.gateway.url}/v1/providers`);
    await client.getByRole('button', { name: /^send/i }).first().click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('authorization')).toBe(`Bearer ${TOKENS.a}`);
    await client.getByText('Aurora Reels').first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: TRY_IT_SCREENSHOT });
    expect({ pageErrors, cspViolations, elsewhere }).toEqual({ pageErrors: [], cspViolations: [], elsewhere: [] });
  }, 60_000);
});
