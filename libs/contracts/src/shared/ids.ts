/**
 * Long ids (issueId, transactionId, roundId, bonusId) where they may arrive as strings of
 * digits: path parameters, query strings, and callback bodies of operators that use the
 * string encoding (decisions.md D7).
 */
import * as z from 'zod';
import { longId } from './primitives.js';

/** 1–16 decimal digits, no leading zero: the canonical text of a positive safe integer. */
const LONG_ID_TEXT_PATTERN = /^[1-9][0-9]{0,15}$/;

export const longIdText = z
  .string()
  .regex(LONG_ID_TEXT_PATTERN, { error: 'expected a positive integer written as decimal digits without leading zeros' })
  .transform(Number)
  .pipe(longId);

/** A long id given as a JSON number or as its canonical decimal text; always a number after parsing. */
export const longIdNumberOrText = z.union([longId, longIdText], {
  error: 'expected a positive integer (a JSON number or a string of digits)',
});

/** bonusId of the callbacks: 0 means "no bonus", otherwise an issueId (spec §2.5). */
export const bonusIdValue = z.union([z.literal(0), longId], { error: 'bonusId must be 0 or a positive integer' });
