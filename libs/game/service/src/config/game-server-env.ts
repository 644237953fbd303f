/**
 * The game-server's environment (docs/configuration.md), parsed by one zod schema. Defaults run on the
 * embedded back ends: `npm start` needs no variable at all.
 */
import {
  catalogFile,
  listenHost,
  parseEnv,
  platformEnvShape,
  port,
  positiveInt,
  shardCount,
  unauthenticatedRateLimitEnvShape,
  type Env,
} from '@reelstream/platform-config';
import { DEFAULT_BALANCE_CEILING_UNITS } from '@reelstream/game-domain';
import type { RateLimitConfig } from '@reelstream/platform-http';
import { DeliveryPolicies } from '@reelstream/wallet-application';
import * as z from 'zod';

/** The bet and betwin callbacks may take as long as the wallet's delivery policy allows (spec §8); the reply needs more. */
const BET_CALLBACK_LIMIT_MS = Math.max(DeliveryPolicies.bet.timeoutMs, DeliveryPolicies.betwin.timeoutMs);
const DEFAULT_WALLET_TIMEOUT_MS = 5_000;
export const gameServerEnv = z
  .object({
    ...platformEnvShape,
    GAME_PORT: port(8081),
    GAME_HOST: listenHost(),
    CATALOG_FILE: catalogFile(),
    /** How long a spin waits for the dispatcher's answer to its bet; past it the round is resolved in the background. */
    WALLET_TIMEOUT_MS: positiveInt(DEFAULT_WALLET_TIMEOUT_MS),
    /** A round still open this long after it started is taken over by the resolver (the spin that started it gave up or crashed). */
    ROUND_RESOLVE_AFTER_MS: positiveInt(15_000),
    /** Another replica takes the round outbox and resolver over this long after its holder stopped renewing. */
    LEASE_TTL_MS: positiveInt(10_000),
    /**
     * How many shards the round outbox and resolver are split into, each under its own lease: the pods share
     * them by their share of the `game-server` group (docs/adr/0045-outbox-and-relay-split-into-shards.md).
     * 1: one outbox.
     */
    ROUND_OUTBOX_SHARDS: shardCount(),
    /** Play money of a demo session, in currency units. */
    DEMO_BALANCE: z.coerce
      .number({ error: 'must be a number' })
      .positive({ error: 'must be a positive number' })
      .default(1_000),
    /** The highest wallet balance shown to a player, in currency units; above it the page shows none. */
    PLAYER_BALANCE_CEILING: z.coerce
      .number({ error: 'must be a number' })
      .positive({ error: 'must be a positive number' })
      .default(DEFAULT_BALANCE_CEILING_UNITS),
    /** Per operator and player: the player API and the page, whichever session the player plays in. */
    PLAYER_RATE_LIMIT_PER_SECOND: positiveInt(20),
    PLAYER_RATE_LIMIT_BURST: positiveInt(100),
    /** Per client address: requests naming no live session (`TRUST_PROXY` says which address is the client's). */
    ...unauthenticatedRateLimitEnvShape,
  })
  .superRefine((env, ctx) => {
    if (env.WALLET_TIMEOUT_MS <= BET_CALLBACK_LIMIT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['WALLET_TIMEOUT_MS'],
        message: `must be longer than the ${BET_CALLBACK_LIMIT_MS} ms bet callback limit, or every slow bet is reported as unanswered`,
      });
    }
    if (env.ROUND_RESOLVE_AFTER_MS <= env.WALLET_TIMEOUT_MS) {
      ctx.addIssue({
        code: 'custom',
        path: ['ROUND_RESOLVE_AFTER_MS'],
        message: 'must be longer than WALLET_TIMEOUT_MS, or the resolver races the spin that is still waiting',
      });
    }
  });
export type GameServerEnv = z.output<typeof gameServerEnv>;

/** What the game-server runs with, independent of where it came from. */
export interface GameServerConfig {
  /** 0 = any free port. */
  port: number;
  host?: string;
  walletTimeoutMs: number;
  resolveAfterMs: number;
  /** How often open rounds are looked at. Default 1 s. */
  resolveIntervalMs?: number;
  /** Demo play money in currency units. */
  demoBalance: number;
  /** `LEASE_TTL_MS` of the round outbox's lease. Default 10 s. */
  leaseTtlMs?: number;
  /** `ROUND_OUTBOX_SHARDS`: the round outbox's shards. Default 1, one outbox. */
  roundOutboxShards?: number;
  /** The highest wallet balance shown, in currency units. Default game-domain's `DEFAULT_BALANCE_CEILING_UNITS`. */
  balanceCeilingUnits?: number;
  /** Requests per operator and player, and per client address without a live session. Unset: not limited. */
  rateLimits?: { player: RateLimitConfig; unauthenticated: RateLimitConfig };
  /** Express's `trust proxy`: the proxies whose `X-Forwarded-For` names the client. Unset: none. */
  trustProxy?: number | string[];
}

export function parseGameServerEnv(env: Env = process.env): GameServerEnv {
  return parseEnv(gameServerEnv, env);
}

export function gameServerConfigOf(env: GameServerEnv): GameServerConfig {
  const config: GameServerConfig = {
    port: env.GAME_PORT,
    walletTimeoutMs: env.WALLET_TIMEOUT_MS,
    resolveAfterMs: env.ROUND_RESOLVE_AFTER_MS,
    demoBalance: env.DEMO_BALANCE,
    leaseTtlMs: env.LEASE_TTL_MS,
    roundOutboxShards: env.ROUND_OUTBOX_SHARDS,
    balanceCeilingUnits: env.PLAYER_BALANCE_CEILING,
    rateLimits: {
      player: { perSecond: env.PLAYER_RATE_LIMIT_PER_SECOND, burst: env.PLAYER_RATE_LIMIT_BURST },
      unauthenticated: {
        perSecond: env.UNAUTHENTICATED_RATE_LIMIT_PER_SECOND,
        burst: env.UNAUTHENTICATED_RATE_LIMIT_BURST,
      },
    },
  };
  if (env.TRUST_PROXY !== undefined) config.trustProxy = env.TRUST_PROXY;
  if (env.GAME_HOST !== undefined) config.host = env.GAME_HOST;
  return config;
}
