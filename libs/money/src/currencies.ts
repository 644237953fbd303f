/**
 * ISO 4217 minor-unit exponents of the active currency codes. Every code not listed under
 * another exponent has 2 decimals. Source: the ISO 4217 list (Amendment 176+).
 */
const ZERO_DECIMALS = ['BIF', 'CLP', 'DJF', 'GNF', 'ISK', 'JPY', 'KMF', 'KRW', 'PYG', 'RWF', 'UGX', 'UYI', 'VND', 'VUV', 'XAF', 'XOF', 'XPF'];
const THREE_DECIMALS = ['BHD', 'IQD', 'JOD', 'KWD', 'LYD', 'OMR', 'TND'];
const FOUR_DECIMALS = ['CLF', 'UYW'];
const TWO_DECIMALS = [
  'AED', 'AFN', 'ALL', 'AMD', 'AOA', 'ARS', 'AUD', 'AWG', 'AZN', 'BAM', 'BBD', 'BDT', 'BGN', 'BMD', 'BND', 'BOB', 'BOV',
  'BRL', 'BSD', 'BTN', 'BWP', 'BYN', 'BZD', 'CAD', 'CDF', 'CHE', 'CHF', 'CHW', 'CNY', 'COP', 'COU', 'CRC', 'CUP', 'CVE',
  'CZK', 'DKK', 'DOP', 'DZD', 'EGP', 'ERN', 'ETB', 'EUR', 'FJD', 'FKP', 'GBP', 'GEL', 'GHS', 'GIP', 'GMD', 'GTQ', 'GYD',
  'HKD', 'HNL', 'HTG', 'HUF', 'IDR', 'ILS', 'INR', 'IRR', 'JMD', 'KES', 'KGS', 'KHR', 'KPW', 'KYD', 'KZT', 'LAK', 'LBP',
  'LKR', 'LRD', 'LSL', 'MAD', 'MDL', 'MGA', 'MKD', 'MMK', 'MNT', 'MOP', 'MRU', 'MUR', 'MVR', 'MWK', 'MXN', 'MXV', 'MYR',
  'MZN', 'NAD', 'NGN', 'NIO', 'NOK', 'NPR', 'NZD', 'PAB', 'PEN', 'PGK', 'PHP', 'PKR', 'PLN', 'QAR', 'RON', 'RSD', 'RUB',
  'SAR', 'SBD', 'SCR', 'SDG', 'SEK', 'SGD', 'SHP', 'SLE', 'SOS', 'SRD', 'SSP', 'STN', 'SVC', 'SYP', 'SZL', 'THB', 'TJS',
  'TMT', 'TOP', 'TRY', 'TTD', 'TWD', 'TZS', 'UAH', 'USD', 'USN', 'UYU', 'UZS', 'VED', 'VES', 'WST', 'XCD', 'XCG', 'YER',
  'ZAR', 'ZMW', 'ZWG',
];

const EXPONENTS: ReadonlyMap<string, number> = new Map([
  ...TWO_DECIMALS.map((code) => [code, 2] as const),
  ...ZERO_DECIMALS.map((code) => [code, 0] as const),
  ...THREE_DECIMALS.map((code) => [code, 3] as const),
  ...FOUR_DECIMALS.map((code) => [code, 4] as const),
]);

export const currencyCodes: readonly string[] = [...EXPONENTS.keys()].sort();

export function isCurrencyCode(code: string): boolean {
  return EXPONENTS.has(code);
}

/** Number of decimals of the currency's minor unit (JPY 0, EUR 2, KWD 3). */
export function currencyExponent(code: string): number {
  const exponent = EXPONENTS.get(code);
  if (exponent === undefined) throw new UnknownCurrencyError(code);
  return exponent;
}

export class UnknownCurrencyError extends Error {
  override readonly name = 'UnknownCurrencyError';
  constructor(readonly currency: string) {
    super(`unknown ISO 4217 currency code: ${JSON.stringify(currency)}`);
  }
}
