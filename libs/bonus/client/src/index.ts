/** @reelstream/bonus-client: how other services ask the bonus-ledger (commands and queries over the bus). */
export {
  BonusLedgerClient,
  LedgerTimeoutError,
  DEFAULT_LEDGER_TIMEOUT_MS,
  type BonusRequestData,
} from './bonus-ledger-client.js';
