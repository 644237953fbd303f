/**
 * @reelstream/sandbox-conformance: the conformance kit for operator wallets — a scripted suite of signed
 * callbacks against any callback URL, and its pass/fail table (`npm run conformance`).
 */
export { runConformance, formatReport } from './run.js';
export { runWebhookConformance } from './webhooks.js';
