import { ReelstreamError } from '@reelstream/errors';
import { currencyExponent } from './currencies.js';

/**
 * Conversion between amounts at the edges (JSON numbers or decimal strings in currency units)
 * and the integer minor units used everywhere inside. No float arithmetic: a number is turned
 * into its shortest decimal representation and handled as digits.
 */

type AmountErrorCode = 'AMOUNT_INVALID' | 'AMOUNT_PRECISION' | 'AMOUNT_TOO_LARGE';

/**
 * An amount that is not one: its code from the catalogue, its message the one an operator reads in
 * `error.details` (the edges choose the answer's code: `AMOUNT_PRECISION`, else `VALIDATION_FAILED`).
 * Never retriable: the same amount is refused the same way.
 */
export class AmountError extends ReelstreamError {
  override readonly name = 'AmountError';
  declare readonly code: AmountErrorCode;

  constructor(code: AmountErrorCode, message: string) {
    super(code, message, { retriable: false });
  }
}

export type AmountResult = { ok: true; minor: number } | { ok: false; error: AmountError };

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/i;

/** Digits and a power-of-ten scale for a plain or exponent-notation decimal. */
function decompose(text: string): { negative: boolean; digits: string; scale: number } | undefined {
  const match = DECIMAL.exec(text);
  if (!match) return undefined;
  // Stryker disable next-line StringLiteral: equivalent: the pattern always captures `whole`, and an exponent of "" is Number("") = 0 as "0" is
  const [, sign, whole = '', decimals, exponent = '0'] = match;
  const fraction = decimals ?? '';
  return { negative: sign === '-', digits: whole + fraction, scale: fraction.length - Number(exponent) };
}

/** Parses a currency amount into integer minor units, refusing more decimals than the currency has. */
export function tryParseAmount(value: number | string, currency: string): AmountResult {
  const exponent = currencyExponent(currency);
  if (typeof value === 'number' && !Number.isFinite(value)) {
    return { ok: false, error: new AmountError('AMOUNT_INVALID', `amount must be a finite number, got ${value}`) };
  }
  const text = typeof value === 'number' ? String(value) : value.trim();
  const parts = decompose(text);
  if (!parts)
    return {
      ok: false,
      error: new AmountError('AMOUNT_INVALID', `amount ${JSON.stringify(value)} is not a decimal number`),
    };

  // digits · 10^-scale  →  minor = digits · 10^(exponent - scale)
  let digits = parts.digits.replace(/^0+(?=\d)/, '');
  let shift = exponent - parts.scale;
  // Stryker disable next-line EqualityOperator: equivalent: at shift 0 the block drops no digit and leaves them as they are
  if (shift < 0) {
    // Dropping digits is only allowed when they are zeros (1.50 USD is fine, 1.505 USD is not).
    const dropped = digits.slice(Math.max(0, digits.length + shift));
    if (/[^0]/.test(dropped)) {
      return {
        ok: false,
        error: new AmountError(
          'AMOUNT_PRECISION',
          `amount ${text} has more than ${exponent} decimal place(s) allowed for ${currency}`,
        ),
      };
    }
    // Nothing kept ("0.000" EUR): the empty string, whose Number is 0.
    digits = digits.slice(0, Math.max(0, digits.length + shift));
    shift = 0;
  }
  if (digits.length + shift > 16) {
    return { ok: false, error: new AmountError('AMOUNT_TOO_LARGE', `amount ${text} ${currency} is too large`) };
  }
  const minor = Number(digits + '0'.repeat(shift));
  if (!Number.isSafeInteger(minor)) {
    return { ok: false, error: new AmountError('AMOUNT_TOO_LARGE', `amount ${text} ${currency} is too large`) };
  }
  return { ok: true, minor: parts.negative && minor !== 0 ? -minor : minor };
}

/**
 * A balance an operator's wallet reported, in minor units: any finite JSON number, its decimals
 * beyond the currency's rounded half to even (99.89999999999999 EUR → 9990, 0.125 EUR → 12). A
 * wallet that keeps balances as binary floating point answers such numbers; the spec asks only
 * for a number. Amounts reelstream moves stay exact (`tryParseAmount`); this is for balances.
 */
export function tryRoundAmountHalfEven(value: number, currency: string): AmountResult {
  const exponent = currencyExponent(currency);
  // Number.isFinite takes no string for a number: '99.9' from a wallet that quotes its balance is refused too.
  if (!Number.isFinite(value)) {
    return {
      ok: false,
      error: new AmountError('AMOUNT_INVALID', `amount must be a finite number, got ${String(value)}`),
    };
  }
  // A finite number always prints as a decimal (`1.5`, `1e-7`, `-2.5e+21`).
  const parts = decompose(String(value)) as NonNullable<ReturnType<typeof decompose>>;
  const shift = exponent - parts.scale;
  // Stryker disable next-line EqualityOperator: equivalent: at shift 0 the rounding below drops no digit and parses the same digits
  if (shift >= 0) return tryParseAmount(value, currency);
  // digits · 10^shift, shift < 0: keep the leading digits, round on the dropped ones.
  const digits = parts.digits.padStart(1 - shift, '0');
  const kept = digits.slice(0, digits.length + shift);
  const dropped = digits.slice(digits.length + shift);
  // Stryker disable next-line StringLiteral: equivalent: a shortest decimal never ends in 0, so no dropped part is a 5 and zeros only, where '5' and '50' would differ
  const half = '5'.padEnd(dropped.length, '0');
  const lastKeptOdd = Number(kept.at(-1)) % 2 === 1;
  const roundUp = dropped > half || (dropped === half && lastKeptOdd);
  const rounded = roundUp ? (BigInt(kept) + 1n).toString() : kept;
  return tryParseAmount(`${parts.negative ? '-' : ''}${rounded}e-${exponent}`, currency);
}

/** As `tryParseAmount`, throwing the `AmountError`. */
export function parseAmount(value: number | string, currency: string): number {
  const result = tryParseAmount(value, currency);
  if (!result.ok) throw result.error;
  return result.minor;
}

/** Minor units as a decimal string with exactly the currency's decimals: 1230 USD → "12.30". */
export function formatAmountString(minor: number, currency: string): string {
  assertMinor(minor);
  const exponent = currencyExponent(currency);
  const negative = minor < 0;
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const whole = digits.slice(0, digits.length - exponent);
  const fraction = digits.slice(digits.length - exponent);
  return `${negative ? '-' : ''}${whole}${exponent > 0 ? `.${fraction}` : ''}`;
}

/** Minor units as a JSON number in currency units: 1230 USD → 12.3 (the shortest exact decimal). */
export function formatAmount(minor: number, currency: string): number {
  return Number(formatAmountString(minor, currency));
}

function assertMinor(minor: number): void {
  if (!Number.isSafeInteger(minor))
    throw new AmountError('AMOUNT_INVALID', `minor units must be a safe integer, got ${minor}`);
}

/** Checked integer arithmetic on minor units. */
export function addMinor(a: number, b: number): number {
  assertMinor(a);
  assertMinor(b);
  const sum = a + b;
  if (!Number.isSafeInteger(sum)) throw new AmountError('AMOUNT_TOO_LARGE', `sum ${a} + ${b} overflows`);
  return sum;
}

export function subtractMinor(a: number, b: number): number {
  return addMinor(a, -b);
}

export function multiplyMinor(minor: number, factor: number): number {
  assertMinor(minor);
  if (!Number.isSafeInteger(factor))
    throw new AmountError('AMOUNT_INVALID', `factor must be a safe integer, got ${factor}`);
  const product = minor * factor;
  if (!Number.isSafeInteger(product))
    throw new AmountError('AMOUNT_TOO_LARGE', `product ${minor} × ${factor} overflows`);
  return product;
}
