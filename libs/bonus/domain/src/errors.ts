/**
 * A refused command is a value: `decide` returns a `Refusal` (contracts, issue 11) instead of
 * throwing, with a code from the one error catalogue (the gateway alone maps it to an HTTP status).
 */
export { isRefusal, refusal, type Refusal } from '@reelstream/contracts';
