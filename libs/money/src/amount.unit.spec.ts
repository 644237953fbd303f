import { describe, expect, it } from '@jest/globals';
import { isRetriable, ReelstreamError } from '@reelstream/errors';
import fc from 'fast-check';
import {
  AmountError,
  addMinor,
  formatAmount,
  formatAmountString,
  multiplyMinor,
  parseAmount,
  tryParseAmount,
  tryRoundAmountHalfEven,
} from './amount.js';
import { currencyExponent, isCurrencyCode, UnknownCurrencyError } from './currencies.js';

describe('currency exponents (ISO 4217)', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['KRW', 0],
    ['JPY', 0],
    ['KWD', 3],
    ['CLF', 4],
  ])('%s has %i decimals', (code, exponent) => {
    expect(currencyExponent(code)).toBe(exponent);
  });

  it('rejects codes that are not ISO 4217', () => {
    expect(isCurrencyCode('usd')).toBe(false);
    expect(isCurrencyCode('XBT')).toBe(false);
    expect(() => currencyExponent('ABC')).toThrow(UnknownCurrencyError);
    expect(() => currencyExponent('ABC')).toThrow(
      expect.objectContaining({
        name: 'UnknownCurrencyError',
        currency: 'ABC',
        message: 'unknown ISO 4217 currency code: "ABC"',
      }),
    );
  });

  it('says so with an error of the family: code CURRENCY_UNKNOWN, never retriable', () => {
    const thrown = (() => {
      try {
        return currencyExponent('XBT');
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ReelstreamError);
    expect(thrown).toBeInstanceOf(UnknownCurrencyError);
    const error = thrown as UnknownCurrencyError;
    expect([error.code, error.message, error.retriable, isRetriable(error)]).toEqual([
      'CURRENCY_UNKNOWN',
      'unknown ISO 4217 currency code: "XBT"',
      false,
      false,
    ]);
  });
});

describe('parseAmount: JSON amounts to minor units', () => {
  it.each([
    [2, 'USD', 200],
    [2.5, 'USD', 250],
    [0.29, 'USD', 29],
    ['12.30', 'USD', 1230],
    [1.5, 'KWD', 1500],
    [1000, 'KRW', 1000],
    [1.0, 'KRW', 1],
    ['1.500', 'USD', 150],
    [1e3, 'EUR', 100_000],
    ['2E-2', 'EUR', 2],
    [0, 'USD', 0],
    [-3.1, 'USD', -310],
  ])('%p %s is %i minor units', (value, currency, minor) => {
    expect(parseAmount(value, currency)).toBe(minor);
  });

  it.each([
    [1.005, 'USD'],
    ['0.001', 'EUR'],
    [0.1 + 0.2, 'USD'],
    [1.5, 'KRW'],
    [1e-7, 'USD'],
    [0.0001, 'KWD'],
  ])('%p has too many decimals for %s', (value, currency) => {
    const result = tryParseAmount(value, currency);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('AMOUNT_PRECISION');
  });

  it.each([[Number.NaN], [Number.POSITIVE_INFINITY], ['12,30'], [''], ['1.2.3'], ['0x10'], [' '], ['abc']])(
    '%p is not an amount',
    (value) => {
      const result = tryParseAmount(value, 'USD');
      expect(!result.ok && result.error.code).toBe('AMOUNT_INVALID');
    },
  );

  it('says what is wrong with an amount, in an AmountError', () => {
    const messageOf = (value: number | string, currency = 'EUR') => {
      const result = tryParseAmount(value, currency);
      return !result.ok && result.error instanceof AmountError && result.error.name === 'AmountError'
        ? result.error.message
        : 'accepted';
    };
    expect(messageOf(Number.NEGATIVE_INFINITY)).toBe('amount must be a finite number, got -Infinity');
    expect(messageOf(Number.NaN)).toBe('amount must be a finite number, got NaN');
    expect(messageOf('12,30')).toBe('amount "12,30" is not a decimal number');
    expect(messageOf('1.505')).toBe('amount 1.505 has more than 2 decimal place(s) allowed for EUR');
    expect(messageOf('99999999999999999', 'JPY')).toBe('amount 99999999999999999 JPY is too large');
    expect(messageOf('90071992547409.93', 'USD')).toBe('amount 90071992547409.93 USD is too large');
  });

  it('refuses with errors of the family: the kernel code, the message an operator reads, never retriable', () => {
    const refused = (value: number | string, currency: string) => {
      const result = tryParseAmount(value, currency);
      return result.ok ? undefined : result.error;
    };
    const cases = [
      [refused('1.505', 'EUR'), 'AMOUNT_PRECISION', 'amount 1.505 has more than 2 decimal place(s) allowed for EUR'],
      [refused('12,30', 'EUR'), 'AMOUNT_INVALID', 'amount "12,30" is not a decimal number'],
      [refused('99999999999999999', 'JPY'), 'AMOUNT_TOO_LARGE', 'amount 99999999999999999 JPY is too large'],
    ] as const;
    for (const [error, code, message] of cases) {
      expect(error).toBeInstanceOf(ReelstreamError);
      expect(error).toBeInstanceOf(AmountError);
      expect([error?.name, error?.code, error?.message, error?.retriable, isRetriable(error)]).toEqual([
        'AmountError',
        code,
        message,
        false,
        false,
      ]);
    }
    const thrown = (() => {
      try {
        return addMinor(Number.MAX_SAFE_INTEGER, 1);
      } catch (error) {
        return error;
      }
    })();
    expect(thrown).toBeInstanceOf(ReelstreamError);
    expect(thrown).toMatchObject({
      code: 'AMOUNT_TOO_LARGE',
      retriable: false,
      message: `sum ${Number.MAX_SAFE_INTEGER} + 1 overflows`,
    });
  });

  it('reads a string amount without the spaces around it', () => {
    expect(parseAmount(' 1.50 ', 'EUR')).toBe(150);
    expect(parseAmount('\t-2\n', 'EUR')).toBe(-200);
  });

  it('does not count leading zeros against the size limit', () => {
    expect(parseAmount('00000000000000000001.50', 'EUR')).toBe(150);
    expect(parseAmount('000000000000000000000', 'EUR')).toBe(0);
    expect(parseAmount('0.000', 'EUR')).toBe(0);
  });

  it('refuses an exponent too large to write out without building its digits', () => {
    const result = tryParseAmount('1e1000000000', 'EUR');
    expect(!result.ok && result.error.code).toBe('AMOUNT_TOO_LARGE');
  });

  it('refuses amounts beyond 53-bit minor units', () => {
    expect(() => parseAmount(1e15, 'USD')).toThrow(AmountError);
    expect(() => parseAmount('90071992547409.93', 'USD')).toThrow(/too large/);
    expect(parseAmount('90071992547409.91', 'USD')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('tryRoundAmountHalfEven: an operator wallet’s balance to minor units', () => {
  it.each([
    [99.89999999999999, 'EUR', 9990],
    [0.30000000000000004, 'USD', 30],
    [0.125, 'EUR', 12],
    [0.135, 'EUR', 14],
    [-0.125, 'EUR', -12],
    [9.995, 'EUR', 1000],
    [2.5, 'KRW', 2],
    [1.5, 'JPY', 2],
    [0.0015, 'KWD', 2],
    [1e-7, 'USD', 0],
    [12.3, 'USD', 1230],
    [-0.004, 'EUR', 0],
    [0.124, 'EUR', 12],
    [0.126, 'EUR', 13],
    [1.2500001, 'JPY', 1],
    [0.995, 'EUR', 100],
    [-9.999, 'EUR', -1000],
  ])('%p %s is %i minor units', (value, currency, minor) => {
    expect(tryRoundAmountHalfEven(value, currency)).toEqual({ ok: true, minor });
  });

  it('refuses what is not a finite number, and balances beyond 53-bit minor units', () => {
    for (const value of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '99.9' as unknown as number,
      undefined as unknown as number,
    ])
      expect(!tryRoundAmountHalfEven(value, 'EUR').ok && 'refused').toBe('refused');
    const infinite = tryRoundAmountHalfEven(Number.NEGATIVE_INFINITY, 'EUR');
    expect(!infinite.ok && infinite.error.message).toBe('amount must be a finite number, got -Infinity');
    const large = tryRoundAmountHalfEven(1e21, 'USD');
    expect(!large.ok && large.error.code).toBe('AMOUNT_TOO_LARGE');
  });

  it('agrees with tryParseAmount wherever that accepts, and is never more than half a minor unit off', () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1e9, max: 1e9, noNaN: true }),
        fc.constantFrom('EUR', 'JPY', 'KWD'),
        (value, currency) => {
          const rounded = tryRoundAmountHalfEven(value, currency);
          const exact = tryParseAmount(value, currency);
          if (exact.ok) expect(rounded).toEqual(exact);
          expect(rounded.ok).toBe(true);
          const scale = 10 ** currencyExponent(currency);
          expect(Math.abs((rounded.ok ? rounded.minor : Number.NaN) - value * scale)).toBeLessThanOrEqual(
            0.5 + 1e-6 * scale,
          );
        },
      ),
    );
  });
});

describe('formatAmount: minor units back to currency units', () => {
  it.each([
    [1230, 'USD', '12.30', 12.3],
    [5, 'USD', '0.05', 0.05],
    [-5, 'EUR', '-0.05', -0.05],
    [1000, 'KRW', '1000', 1000],
    [1, 'KWD', '0.001', 0.001],
  ])('%i %s is %s', (minor, currency, text, number) => {
    expect(formatAmountString(minor, currency)).toBe(text);
    expect(formatAmount(minor, currency)).toBe(number);
  });

  it('round-trips every safe minor amount through a JSON number', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e13, max: 1e13 }),
        fc.constantFrom('USD', 'KRW', 'KWD', 'CLF'),
        (minor, currency) => {
          const wire = JSON.parse(JSON.stringify({ amount: formatAmount(minor, currency) })) as { amount: number };
          expect(parseAmount(wire.amount, currency)).toBe(minor);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('checked arithmetic on minor units', () => {
  it('adds and multiplies integers', () => {
    expect(addMinor(150, 250)).toBe(400);
    expect(multiplyMinor(150, 20)).toBe(3000);
  });

  it('refuses fractions and overflow', () => {
    expect(() => addMinor(1.5, 1)).toThrow(
      expect.objectContaining({ code: 'AMOUNT_INVALID', message: 'minor units must be a safe integer, got 1.5' }),
    );
    expect(() => addMinor(1, Number.NaN)).toThrow(expect.objectContaining({ code: 'AMOUNT_INVALID' }));
    expect(() => formatAmountString(12.5, 'EUR')).toThrow(expect.objectContaining({ code: 'AMOUNT_INVALID' }));
    expect(() => multiplyMinor(100, 1.5)).toThrow(
      expect.objectContaining({ code: 'AMOUNT_INVALID', message: 'factor must be a safe integer, got 1.5' }),
    );
    expect(() => multiplyMinor(1.5, 2)).toThrow(expect.objectContaining({ code: 'AMOUNT_INVALID' }));
    expect(() => addMinor(Number.MAX_SAFE_INTEGER, 1)).toThrow(/overflows/);
    expect(() => multiplyMinor(2 ** 30, 2 ** 30)).toThrow(/overflows/);
  });
});
