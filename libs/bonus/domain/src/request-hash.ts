import { canonicalJson, sha256HexOf, type RegisterBonusCallRequest } from '@reelstream/contracts';

/**
 * The fingerprint of a registration for D17: SHA-256 of the request as normalised by its schema
 * (the issueId alias resolved to platformId, bonusType words to numbers, one gameId to a list),
 * with the game ids sorted because they name a set, written as JSON with sorted keys. It hashes
 * what the operator sent, not what the gateway derived from configuration (minor units, the
 * instant of expireAt), so a resend stays a replay across a configuration change. The digests
 * must never change: stored reservations compare against them (pinned in the tests).
 */
export function registrationRequestHash(request: RegisterBonusCallRequest): string {
  const normalised = { ...request, gameIds: [...request.gameIds].sort((a, b) => a - b) };
  return sha256HexOf(`register-bonus-call/v1\n${canonicalJson(normalised)}`);
}
