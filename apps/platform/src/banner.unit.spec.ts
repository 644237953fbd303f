import { execFileSync } from 'node:child_process';
import { describe, expect, it } from '@jest/globals';
import { DEMO_OPERATOR } from '@reelstream/platform-config';
import { loadCatalogFile } from '@reelstream/game-adapters';
import {
  isReturnUrlAllowed,
  launchGameRequest,
  localDateTimeToInstant,
  parseOperatorsConfig,
  registerBonusCallRequest,
} from '@reelstream/contracts';
import { platformBanner, shellQuote } from './banner.js';
import { demoScript } from './demo-script.js';

const catalog = loadCatalogFile();
const now = new Date('2026-05-01T09:30:00.000Z');

describe('demoScript', () => {
  it('registers a free-spin bonus of the first free-spin slot at its lowest bet, a day ahead on the operator’s wall clock', () => {
    const script = demoScript(catalog, { currency: 'KRW', timeZone: 'Asia/Seoul' }, now, 'http://localhost:8080/docs');
    expect(script).toMatchObject({
      playerId: 'demo_20260501_093000',
      platformId: 'welcome-20260501-093000',
      baseBet: 200,
      callAmount: 20_000,
      spins: 10,
      expireAt: '2026-05-02 18:30:00',
    });
    const instant = localDateTimeToInstant(script.expireAt, 'Asia/Seoul');
    expect(instant.ok && instant.instant.getTime() - now.getTime()).toBe(86_400_000);
    expect(JSON.parse(script.registerBody)).toMatchObject({
      gameId: script.game.gameId,
      playerId: script.playerId,
      bonusType: 1,
      metaData: { spinAmount: 10, baseBetAmount: 200 },
    });
    expect(JSON.parse(script.launchBody)).toMatchObject({
      playerId: script.playerId,
      gameId: script.game.gameId,
      returnUrl: 'http://localhost:8080/docs',
    });
  });

  it.each([
    ['no allowed return origins: the API docs', [], 'http://localhost:8080/docs'],
    [
      'allowed return origins without the gateway: the first of them',
      ['https://casino.example', 'https://m.casino.example'],
      'https://casino.example/',
    ],
    [
      'allowed return origins that include the gateway: the API docs',
      ['https://casino.example', 'http://localhost:8080'],
      'http://localhost:8080/docs',
    ],
  ])('prints a launch the gateway accepts for an operator with %s', (_name, allowedReturnOrigins, expected) => {
    const [operator] = parseOperatorsConfig([
      {
        id: 'acme',
        name: 'Acme',
        apiToken: 'acme-api-token-0123456789',
        callbackUrl: 'http://127.0.0.1:9/cb',
        signingSecret: 'acme-secret-0123456789',
        currency: 'EUR',
        allowedReturnOrigins,
      },
    ]);
    if (!operator) throw new Error('no operator parsed');
    const script = demoScript(catalog, operator, now, 'http://localhost:8080/docs');
    const launch = launchGameRequest.parse(JSON.parse(script.launchBody));
    expect(launch.returnUrl).toBe(expected);
    // The gateway's own rule (422 RETURN_URL_NOT_ALLOWED otherwise), and a register body its schema takes.
    expect(isReturnUrlAllowed(launch.returnUrl, operator.allowedReturnOrigins)).toBe(true);
    expect(registerBonusCallRequest.safeParse(JSON.parse(script.registerBody)).success).toBe(true);
  });

  it('names a new player and platformId at every start', () => {
    const later = demoScript(
      catalog,
      { currency: 'EUR', timeZone: 'UTC' },
      new Date(now.getTime() + 1_000),
      'http://x/',
    );
    expect([later.playerId, later.platformId]).toEqual(['demo_20260501_093001', 'welcome-20260501-093001']);
    expect(later.playerId).toMatch(/^[A-Za-z0-9_]{1,50}$/);
  });
});

describe('platformBanner', () => {
  const input = {
    gatewayUrl: 'http://localhost:8080',
    gameUrl: 'http://localhost:8081',
    sandboxUrl: 'http://localhost:8082',
    dataDir: '/srv/reelstream/data',
    eventStoreUrl: 'sqlite:./data/reelstream.db',
    operator: { id: 'acme', name: 'Acme' },
    operatorsSource: 'OPERATORS_JSON',
    openingBalance: 1000,
    demo: demoScript(catalog, { currency: 'EUR', timeZone: 'UTC' }, now, 'http://localhost:8080/docs'),
  };

  it('prints the demo token in the commands when it runs the demo operator', () => {
    const banner = platformBanner({ ...input, apiToken: DEMO_OPERATOR.apiToken });
    expect(banner).toContain(`-H 'Authorization: Bearer ${DEMO_OPERATOR.apiToken}'`);
    expect(banner).toContain('data in /srv/reelstream/data');
    expect(banner).toContain(
      "  Operator console  http://localhost:8080/console   sign in with the operator's API token",
    );
  });

  it('leaves configured operators’ tokens to the reader: the commands read $API_TOKEN', () => {
    const banner = platformBanner({ ...input, apiToken: undefined });
    expect(banner).toContain('from OPERATORS_JSON; the commands use acme: first run  export API_TOKEN=<its API token>');
    expect(banner).toContain('-H "Authorization: Bearer $API_TOKEN"');
    expect(banner).not.toContain(DEMO_OPERATOR.apiToken);
  });
});

describe('shellQuote', () => {
  it('gives sh exactly the text, quotes and dollars included', () => {
    const text = `it's "$HOME" \\ and \`backticks\``;
    expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(text)}`], { encoding: 'utf8' })).toBe(text);
  });
});
