/**
 * Debian's Chromium for the browser tests (`.ci/run` installs it). Without it a browser test
 * registers no browser steps: under CI=true that is a failing test, elsewhere a loud notice on
 * stderr, so a green run on a machine without Chromium never passes for a browser test that ran.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from '@jest/globals';
import { chromium, type BrowserContext } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Whether Chromium is there. When it is not, says so loudly outside CI and, under CI=true,
 * registers a failing test in the calling `describe`. Call it from a `describe` body and return
 * when it answers false.
 */
export function chromiumAvailable(testName: string, whatDidNotRun: string): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env['CI'] === 'true') {
    it('needs Chromium under CI', () => {
      throw new Error(`${CHROMIUM} is missing: .ci/run installs it before the tests`);
    });
  } else {
    process.stderr.write(
      `\n${'!'.repeat(78)}\n!! ${testName}: ${CHROMIUM} not found — ${whatDidNotRun} DID NOT RUN.\n!! Install it (apt-get install -y chromium) to run it; under CI=true this fails.\n${'!'.repeat(78)}\n\n`,
    );
  }
  return false;
}

/** A headless Chromium with a throw-away profile; `close` removes the profile too. */
export async function launchChromium(
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'chromium-test-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport,
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
