export { isCurrencyCode, currencyExponent } from './currencies.js';
export {
  tryParseAmount,
  tryRoundAmountHalfEven,
  parseAmount,
  formatAmountString,
  formatAmount,
  addMinor,
  subtractMinor,
  multiplyMinor,
  AmountError,
} from './amount.js';
