import { describe, expect, it } from '@jest/globals';
import { ConfigError, DEFAULT_CATALOG_FILE } from '@reelstream/platform-config';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { gameServerConfigOf, parseGameServerEnv } from './game-server-env.js';

describe('the game-server environment (docs/configuration.md)', () => {
  it('runs with no variable at all: port 8081, the repository catalog, waits longer than the 3 s bet limit', () => {
    const env = parseGameServerEnv({});
    expect(gameServerConfigOf(env)).toEqual({
      port: 8081,
      walletTimeoutMs: 5_000,
      resolveAfterMs: 15_000,
      demoBalance: 1_000,
      leaseTtlMs: 10_000,
      roundOutboxShards: 1,
      balanceCeilingUnits: 1_000_000_000_000,
      rateLimits: { player: { perSecond: 20, burst: 100 }, unauthenticated: { perSecond: 20, burst: 100 } },
    });
    expect(env.CATALOG_FILE).toBe(DEFAULT_CATALOG_FILE);
    expect(loadCatalogFile(env.CATALOG_FILE).games.length).toBeGreaterThan(0);
  });

  it('takes the round outbox split into a power of two of shards, and refuses any other count, naming the variable', () => {
    expect(gameServerConfigOf(parseGameServerEnv({ ROUND_OUTBOX_SHARDS: '16' })).roundOutboxShards).toBe(16);
    for (const count of ['0', '3', '128', 'many'])
      expect(() => parseGameServerEnv({ ROUND_OUTBOX_SHARDS: count })).toThrow(
        /ROUND_OUTBOX_SHARDS: must be one of 1, 2, 4, 8, 16, 32, 64/,
      );
  });

  it('refuses a wallet timeout within the 3 s bet callback limit, naming the variable', () => {
    expect(() => parseGameServerEnv({ WALLET_TIMEOUT_MS: '3000' })).toThrow(ConfigError);
    expect(() => parseGameServerEnv({ WALLET_TIMEOUT_MS: '3000' })).toThrow(
      /WALLET_TIMEOUT_MS: must be longer than the 3000 ms bet callback limit/,
    );
  });

  it('refuses a resolver that would take rounds over while their spin still waits', () => {
    expect(() => parseGameServerEnv({ WALLET_TIMEOUT_MS: '8000', ROUND_RESOLVE_AFTER_MS: '6000' })).toThrow(
      /ROUND_RESOLVE_AFTER_MS: must be longer than WALLET_TIMEOUT_MS/,
    );
  });

  it('takes the rate limits per player and per client address, and the proxies to trust', () => {
    expect(
      gameServerConfigOf(
        parseGameServerEnv({
          PLAYER_RATE_LIMIT_PER_SECOND: '4',
          PLAYER_RATE_LIMIT_BURST: '12',
          UNAUTHENTICATED_RATE_LIMIT_PER_SECOND: '2',
          UNAUTHENTICATED_RATE_LIMIT_BURST: '6',
          TRUST_PROXY: '1',
        }),
      ),
    ).toMatchObject({
      rateLimits: { player: { perSecond: 4, burst: 12 }, unauthenticated: { perSecond: 2, burst: 6 } },
      trustProxy: 1,
    });
    expect(() => parseGameServerEnv({ PLAYER_RATE_LIMIT_BURST: '0' })).toThrow(/PLAYER_RATE_LIMIT_BURST/);
    expect(() => parseGameServerEnv({ TRUST_PROXY: 'TRUE' })).toThrow(/TRUST_PROXY/);
  });

  it('takes a port, a host and the demo balance', () => {
    expect(
      gameServerConfigOf(parseGameServerEnv({ GAME_PORT: '0', GAME_HOST: '127.0.0.1', DEMO_BALANCE: '250.5' })),
    ).toMatchObject({ port: 0, host: '127.0.0.1', demoBalance: 250.5 });
    expect(() => parseGameServerEnv({ GAME_PORT: '70000' })).toThrow(/GAME_PORT/);
  });

  it('takes the lease ttl of the round outbox, a positive number of milliseconds', () => {
    expect(gameServerConfigOf(parseGameServerEnv({ LEASE_TTL_MS: '3000' })).leaseTtlMs).toBe(3_000);
    expect(() => parseGameServerEnv({ LEASE_TTL_MS: '0' })).toThrow(/LEASE_TTL_MS: must be a positive integer/);
  });
});
