import { z } from 'zod';
import { profiles } from '../profile.js';
import type { RoundRecord } from './round-outcome.js';

/**
 * A round record read back from storage (a RoundSettled event, an audit request). Parsing it only
 * proves its shape; `replayRound` proves it is a round the engine can actually have played.
 */
export const roundRecordSchema = z.object({
  modelId: z.string().min(1),
  profile: z.enum(profiles),
  betMinor: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
  draws: z.array(z.number().int().nonnegative().max(0xffff_ffff)).max(100_000),
}) satisfies z.ZodType<RoundRecord>;
