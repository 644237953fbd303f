/** The game's refusals as HTTP answers: the catalogue gives the status; a retry hint becomes `Retry-After`. */
import { GameRefusedError } from '@reelstream/game-application';
import type { GameRefusal } from '@reelstream/game-domain';
import { ApiError } from '@reelstream/platform-http';

export function apiErrorOf(refusal: GameRefusal): ApiError {
  const headers: Record<string, string> = {};
  if (refusal.retryAfterSeconds !== undefined) headers['Retry-After'] = String(refusal.retryAfterSeconds);
  return new ApiError(refusal.code, refusal.message, refusal.details, headers);
}

/** The API error a refusal thrown by a use case answers as; undefined for anything else. */
export function classifyRefusal(error: unknown): ApiError | undefined {
  return error instanceof GameRefusedError ? apiErrorOf(error.refusal) : undefined;
}
