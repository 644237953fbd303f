/**
 * The launch host's rate limits: a request naming a live session (the player API under
 * `/api/sessions/{token}`, the page at `/launch?token=`) counts against its operator's player,
 * however many sessions the player opened; any other (an unknown or malformed token, the assets,
 * the probes, an unknown path) against its client address. Past either: 429 RATE_LIMITED in the
 * error envelope with Retry-After.
 */
import type { Clock } from '@reelstream/platform-ports';
import { clientAddressKey, refuseOverLimit, TokenBucketLimiter, type RateLimitConfig } from '@reelstream/platform-http';
import type { Request, RequestHandler } from 'express';

export interface LaunchHostRateLimits {
  /** Per operator and player. */
  player: RateLimitConfig;
  /** Per client address, for requests without a live session. */
  unauthenticated: RateLimitConfig;
}

interface SessionLookup {
  ownerOf(token: string): Promise<{ operatorId: string; playerId: string } | undefined>;
}

const PLAYER_API_PATH = /^\/api\/sessions\/([^/]+)/;

/** The session token a request names, if any. */
function tokenOf(req: Request): string | undefined {
  if (req.path === '/launch') return typeof req.query['token'] === 'string' ? req.query['token'] : undefined;
  const encoded = PLAYER_API_PATH.exec(req.path)?.[1];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
}

export function launchHostRateLimit(
  limits: LaunchHostRateLimits,
  sessions: SessionLookup,
  clock: Clock,
): RequestHandler {
  const nowMs = () => clock.now().getTime();
  const players = new TokenBucketLimiter(limits.player, nowMs);
  const addresses = new TokenBucketLimiter(limits.unauthenticated, nowMs);
  return async (req, _res, next) => {
    const token = tokenOf(req);
    const session = token === undefined ? undefined : await sessions.ownerOf(token);
    refuseOverLimit(
      session === undefined
        ? addresses.take(clientAddressKey(req))
        : players.take(JSON.stringify([session.operatorId, session.playerId])),
    );
    next();
  };
}
