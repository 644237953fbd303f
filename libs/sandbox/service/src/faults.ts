/**
 * Fault injection (tests and demos): rules that make the sandbox answer late, with an HTTP error,
 * with another status code, with a malformed body, or not at all — for one command, one player,
 * one operator or any, a number of times or until removed. The first matching rule with uses
 * left applies, so "fail twice, then OK" is one rule with `times: 2`.
 */
import { CALLBACK_COMMANDS, callbackStatusCode, operatorId, playerId } from '@reelstream/contracts';
import * as z from 'zod';

const faultRuleInput = z
  .strictObject({
    operatorId: operatorId.optional(),
    playerId: playerId.optional(),
    command: z.enum(CALLBACK_COMMANDS).optional(),
    /** Delay the answer by this long. */
    latencyMs: z.number().int().min(0).max(600_000).optional(),
    /** `after_apply` (default): apply, then answer late, as a slow operator does; `before_apply`: wait, then apply. */
    latencyPhase: z.enum(['before_apply', 'after_apply']).default('after_apply'),
    /** Answer with this HTTP status and a JSON error body. */
    httpStatus: z.number().int().min(100).max(599).optional(),
    /** Answer HTTP 200 with this callback status code and the current balance. */
    statusCode: callbackStatusCode.optional(),
    /** Answer HTTP 200 with this text (true: a truncated JSON object). */
    malformedBody: z.union([z.literal(true), z.string().max(10_000)]).optional(),
    /** Close the connection without an answer. */
    dropConnection: z.literal(true).optional(),
    /** Apply the callback first, then answer with the fault (the operator did it but the answer is lost). Default false. */
    applyFirst: z.boolean().default(false),
    /** How many matching callbacks it affects. Default: all until removed. */
    times: z.number().int().min(1).optional(),
  })
  .superRefine((rule, ctx) => {
    const answers = [rule.httpStatus, rule.statusCode, rule.malformedBody, rule.dropConnection].filter(
      (value) => value !== undefined,
    );
    if (answers.length > 1)
      ctx.addIssue({
        code: 'custom',
        path: ['httpStatus'],
        message: 'give at most one of httpStatus, statusCode, malformedBody, dropConnection',
      });
    if (answers.length === 0 && rule.latencyMs === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['latencyMs'],
        message: 'a fault needs latencyMs or one of httpStatus, statusCode, malformedBody, dropConnection',
      });
  });
export type FaultRuleInput = z.input<typeof faultRuleInput>;
type FaultRuleSpec = z.output<typeof faultRuleInput>;

export interface FaultRule extends FaultRuleSpec {
  id: number;
  /** Uses left; null: unlimited. */
  remaining: number | null;
  hits: number;
}

export const MALFORMED_BODY = '{"balance": 10.5, "statusCode": ';

export class FaultRegistry {
  private readonly rules: FaultRule[] = [];
  private nextId = 1;

  add(input: FaultRuleInput): FaultRule {
    const spec = faultRuleInput.parse(input);
    const rule: FaultRule = { ...spec, id: this.nextId++, remaining: spec.times ?? null, hits: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((rule) => ({ ...rule }));
  }

  remove(id: number): boolean {
    const index = this.rules.findIndex((rule) => rule.id === id);
    if (index < 0) return false;
    this.rules.splice(index, 1);
    return true;
  }

  clear(): void {
    this.rules.splice(0);
  }

  /** Takes one use of the first rule matching this callback. */
  take(match: {
    operatorId: string;
    playerId: string | undefined;
    command: string | undefined;
  }): FaultRule | undefined {
    const rule = this.rules.find(
      (candidate) =>
        candidate.remaining !== 0 &&
        (candidate.operatorId === undefined || candidate.operatorId === match.operatorId) &&
        (candidate.playerId === undefined || candidate.playerId === match.playerId) &&
        (candidate.command === undefined || candidate.command === match.command),
    );
    if (!rule) return undefined;
    rule.hits += 1;
    if (rule.remaining !== null) rule.remaining -= 1;
    return { ...rule };
  }
}
