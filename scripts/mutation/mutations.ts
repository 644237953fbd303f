/**
 * The fixed list of `npm run test:mutation`: each a broken rule the suite must catch.
 * Every `search` must occur exactly once in its file; when the code moves and a pattern no longer
 * matches, the run fails loudly instead of quietly testing nothing — fix the pattern then.
 * `projects` are the jest projects (displayName) whose tests guard the rule: only those run.
 */
export interface Mutation {
  name: string;
  /** Path from the repository root. */
  file: string;
  search: string;
  replace: string;
  projects: readonly string[];
}

const BONUS = ['bonus-domain', 'bonus-application', 'service-bonus-ledger'];
const DISPATCH = ['wallet-adapters', 'service-wallet-dispatcher'];

export const MUTATIONS: readonly Mutation[] = [
  {
    name: 'dispatcher signs with the previous secret instead of the current one',
    file: 'libs/wallet/adapters/src/http-operator-wallet.ts',
    search: 'const secret = operator.signingSecrets[0];',
    replace: 'const secret = operator.signingSecrets[1] ?? operator.signingSecrets[0];',
    projects: DISPATCH,
  },
  {
    name: 'HMAC over re-serialised JSON instead of the bytes sent',
    file: 'libs/wallet/adapters/src/http-operator-wallet.ts',
    search: 'signCallbackBody(bytes, secret, operator.signatureScheme, timestamp)',
    replace: 'signCallbackBody(JSON.stringify(body), secret, operator.signatureScheme, timestamp)',
    projects: DISPATCH,
  },
  {
    name: 'registration request hash ignores baseBetAmount',
    file: 'libs/bonus/domain/src/request-hash.ts',
    search: 'const normalised = { ...request, gameIds:',
    replace: 'const normalised = { ...request, metaData: { ...request.metaData, baseBetAmount: undefined }, gameIds:',
    projects: ['bonus-domain', 'service-gateway'],
  },
  {
    name: 'registration request hash ignores providerId',
    file: 'libs/bonus/domain/src/request-hash.ts',
    search: 'const normalised = { ...request, gameIds:',
    replace: 'const normalised = { ...request, providerId: undefined, gameIds:',
    projects: ['bonus-domain', 'service-gateway'],
  },
  {
    name: 'one active bonus: expire the old bonus and register the new one',
    file: 'libs/bonus/domain/src/decide-register.ts',
    search: 'if (!isAtOrAfter(metadata.now, active.expireAt)) {',
    replace: 'if (false) {',
    projects: BONUS,
  },
  {
    name: 'skip ACTIVE_BONUS_EXISTS: a second bonus registered beside the active one',
    file: 'libs/bonus/domain/src/decide-register.ts',
    search: 'const active = activeBonus(account);',
    replace: 'const active = undefined as ReturnType<typeof activeBonus>;',
    projects: BONUS,
  },
  {
    name: 'no win cap',
    file: 'libs/bonus/domain/src/decide-free-spin.ts',
    search: 'const winMinor = Math.min(rawWinMinor, winCapLeftMinor(bonus));',
    replace: 'const winMinor = rawWinMinor;',
    projects: BONUS,
  },
  {
    name: 'bet timeout 3 s → 4 s',
    file: 'libs/wallet/domain/src/policy.ts',
    search: "bet: { command: 'bet', timeoutMs: 3_000,",
    replace: "bet: { command: 'bet', timeoutMs: 4_000,",
    projects: ['wallet-domain', 'wallet-application', ...DISPATCH],
  },
  {
    name: 'idempotent-replay flag always false',
    file: 'libs/bonus/application/src/bonus-commands.ts',
    search: 'return okReply({ issueId: guard.issueId, replayed: decided.events.length === 0 });',
    replace: 'return okReply({ issueId: guard.issueId, replayed: false });',
    projects: ['bonus-application', 'service-bonus-ledger', 'service-gateway'],
  },
];
