import * as z from 'zod';

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^([1-9][0-9]{0,9})(ms|s|m|h|d)?$/;

/** `14400` (seconds), `90s`, `30m`, `4h`, `1d`, `500ms` → milliseconds; undefined when not a duration. */
export function parseDurationMs(text: string): number | undefined {
  const match = DURATION.exec(text.trim());
  if (!match) return undefined;
  const [, amount = '', unit = 's'] = match;
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** An environment variable holding a positive duration; a bare number is seconds. */
export const duration = (fallbackMs: number) =>
  z
    .string()
    .transform((text, ctx) => {
      const ms = parseDurationMs(text);
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: 'must be a positive duration: seconds (14400) or a number with a unit ms, s, m, h or d (4h)',
        });
        return z.NEVER;
      }
      return ms;
    })
    .optional()
    .transform((ms) => ms ?? fallbackMs);
