import { resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@reelstream/platform-config';
import { OperatorsConfigError } from '@reelstream/contracts';
import { parseDurationMs } from './duration.js';
import { DEFAULT_SESSION_TTL_MS, gatewayConfigOf, loadGatewayOperators, parseGatewayEnv } from './gateway-env.js';

describe('parseDurationMs', () => {
  it.each([
    ['14400', 14_400_000],
    ['4h', 14_400_000],
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['500ms', 500],
    ['1d', 86_400_000],
  ])('reads %s as %i ms', (text, ms) => expect(parseDurationMs(text)).toBe(ms));

  it.each(['', '0', '-5', '4 hours', '1.5h', 'h', '04h'])('refuses %j', (text) =>
    expect(parseDurationMs(text)).toBeUndefined(),
  );
});

describe('gateway environment', () => {
  it('runs with no variable at all on the documented defaults', () => {
    const config = gatewayConfigOf(parseGatewayEnv({}));
    expect(config).toEqual({
      port: 8080,
      launchBaseUrl: 'http://localhost:8081',
      sessionTtlMs: DEFAULT_SESSION_TTL_MS,
      ledgerTimeoutMs: 5_000,
      rateLimit: { perSecond: 50, burst: 100 },
      campaignRateLimit: { perSecond: 50, burst: 10_000 },
      unauthenticatedRateLimit: { perSecond: 20, burst: 100 },
      bodyLimitBytes: 32_768,
      readModelFile: resolve('./data/gateway-read-gateway.db'),
    });
    expect(DEFAULT_SESSION_TTL_MS).toBe(4 * 60 * 60 * 1000);
  });

  it('derives the launch host from GAME_PORT and takes LAUNCH_BASE_URL without its trailing slash', () => {
    expect(gatewayConfigOf(parseGatewayEnv({ GAME_PORT: '9001' })).launchBaseUrl).toBe('http://localhost:9001');
    expect(gatewayConfigOf(parseGatewayEnv({ LAUNCH_BASE_URL: 'https://play.example.com/' })).launchBaseUrl).toBe(
      'https://play.example.com',
    );
  });

  it('reads every setting', () => {
    const config = gatewayConfigOf(
      parseGatewayEnv({
        GATEWAY_PORT: '0',
        GATEWAY_HOST: '127.0.0.1',
        SESSION_TTL: '30m',
        LEDGER_TIMEOUT_MS: '750',
        RATE_LIMIT_PER_SECOND: '5',
        RATE_LIMIT_BURST: '9',
        CAMPAIGN_PLAYERS_PER_SECOND: '20',
        CAMPAIGN_PLAYERS_BURST: '500',
        UNAUTHENTICATED_RATE_LIMIT_PER_SECOND: '3',
        UNAUTHENTICATED_RATE_LIMIT_BURST: '7',
        TRUST_PROXY: '10.0.0.0/8, loopback',
        BODY_LIMIT_BYTES: '4096',
        READ_MODEL_DIR: '/var/lib/reelstream/read',
        INSTANCE_ID: 'gateway-1',
        CURSOR_SECRET: 'c'.repeat(16) + 'd'.repeat(16),
      }),
    );
    expect(config).toMatchObject({
      readModelFile: '/var/lib/reelstream/read/gateway-read-gateway-1.db',
      cursorSecret: 'c'.repeat(16) + 'd'.repeat(16),
      port: 0,
      host: '127.0.0.1',
      sessionTtlMs: 1_800_000,
      ledgerTimeoutMs: 750,
      rateLimit: { perSecond: 5, burst: 9 },
      campaignRateLimit: { perSecond: 20, burst: 500 },
      unauthenticatedRateLimit: { perSecond: 3, burst: 7 },
      trustProxy: ['10.0.0.0/8', 'loopback'],
      bodyLimitBytes: 4096,
    });
    expect(gatewayConfigOf(parseGatewayEnv({ TRUST_PROXY: '2' })).trustProxy).toBe(2);
  });

  it.each([
    ['GATEWAY_PORT', '70000'],
    ['SESSION_TTL', 'forever'],
    ['LEDGER_TIMEOUT_MS', '0'],
    ['RATE_LIMIT_BURST', '-1'],
    ['UNAUTHENTICATED_RATE_LIMIT_PER_SECOND', '0'],
    ['TRUST_PROXY', 'true'],
    ['LAUNCH_BASE_URL', 'ftp://games.example'],
    ['LAUNCH_BASE_URL', 'https://games.example/?x=1'],
    ['CURSOR_SECRET', 'too-short'],
  ])('names %s when it is invalid (%s)', (name, value) => {
    expect(() => parseGatewayEnv({ [name]: value })).toThrow(ConfigError);
    expect(() => parseGatewayEnv({ [name]: value })).toThrow(name);
  });

  it('wires the demo operator to the sandbox on SANDBOX_PORT when no operators are configured', () => {
    const env = { SANDBOX_PORT: '9082' };
    const loaded = loadGatewayOperators(env, parseGatewayEnv(env));
    expect(loaded.source).toBe('demo');
    expect(loaded.operators[0]?.callbackUrl).toBe('http://localhost:9082/wallet/demo');
  });

  it('takes OPERATORS_JSON, and refuses it together with OPERATORS_FILE', () => {
    const operators = JSON.stringify([
      {
        id: 'x',
        name: 'X',
        apiToken: 'token-0123456789abcdef',
        callbackUrl: 'https://x.example/cb',
        signingSecret: 'secret-0123456789abcdef',
        currency: 'USD',
      },
    ]);
    const env = { OPERATORS_JSON: operators };
    expect(loadGatewayOperators(env, parseGatewayEnv(env)).operators.map((operator) => operator.id)).toEqual(['x']);
    const both = { OPERATORS_JSON: operators, OPERATORS_FILE: '/tmp/operators.json' };
    expect(() => loadGatewayOperators(both, parseGatewayEnv(both))).toThrow(OperatorsConfigError);
  });
});
