/**
 * The text `npm start` ends its start-up with: where everything is, the demo operator's token,
 * and the first three things to do, as commands that work when pasted as printed (the e2e suite
 * runs them). Plain text on stdout after the JSON log lines, so it is the last thing on screen.
 */
import type { DemoScript } from './demo-script.js';

export interface BannerInput {
  gatewayUrl: string;
  gameUrl: string;
  sandboxUrl: string;
  dataDir: string;
  eventStoreUrl: string;
  operator: { id: string; name: string };
  /** The demo operator's API token; undefined when the operators are configured (their tokens are theirs). */
  apiToken: string | undefined;
  operatorsSource: string;
  /** The sandbox's opening balance of a new player, or undefined when it opens no accounts by itself. */
  openingBalance: number | undefined;
  demo: DemoScript;
}

/** A single-quoted shell word: pasted into sh, bash or zsh it is exactly `text`. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function curl(method: 'GET' | 'POST', url: string, authorization: string, body?: string): string {
  const lines = [
    `curl -s ${method === 'POST' ? '-X POST ' : ''}${shellQuote(url)} \\`,
    `  -H ${authorization}${body === undefined ? '' : " -H 'Content-Type: application/json' \\"}`,
  ];
  if (body !== undefined) lines.push(`  -d ${shellQuote(body)}`);
  return lines.join('\n');
}

export function platformBanner(input: BannerInput): string {
  const { demo } = input;
  const authorization =
    input.apiToken === undefined
      ? '"Authorization: Bearer $API_TOKEN"'
      : shellQuote(`Authorization: Bearer ${input.apiToken}`);
  const money = (amount: number) => `${amount} ${demo.currency}`;
  const where = input.eventStoreUrl.startsWith('sqlite:')
    ? `data in ${input.dataDir}`
    : `event store ${input.eventStoreUrl}`;
  const operatorLine =
    input.apiToken === undefined
      ? `  Operators         from ${input.operatorsSource}; the commands use ${input.operator.id}: first run  export API_TOKEN=<its API token>`
      : `  Demo operator     ${input.operator.id} (${input.operator.name}), API token ${input.apiToken}`;
  const balance =
    input.openingBalance === undefined ? '' : ` (${demo.playerId} starts with ${money(input.openingBalance)})`;
  return [
    '',
    `reelstream is running: every service in this process, ${where}.`,
    '',
    `  Operator API      ${input.gatewayUrl}   docs: ${input.gatewayUrl}/docs`,
    `  Operator console  ${input.gatewayUrl}/console   sign in with the operator's API token`,
    `  Game launch host  ${input.gameUrl}`,
    `  Operator sandbox  ${input.sandboxUrl}   the operator's wallet${balance}`,
    operatorLine,
    '',
    `1. Register a free-spin bonus: ${demo.spins} spins of ${money(demo.baseBet)} on ${demo.game.name} for player ${demo.playerId},`,
    `   win cap ${money(demo.callAmount)}, expiring ${demo.expireAt} (${demo.timeZone}). The answer carries its issueId;`,
    '   sent again, the same command answers the same issueId with the header Idempotent-Replayed: true.',
    '',
    curl('POST', `${input.gatewayUrl}/v1/bonus-call/register`, authorization, demo.registerBody),
    '',
    '2. Launch the game for that player. The answer\'s "data" is the launch URL:',
    '',
    curl('POST', `${input.gatewayUrl}/v1/game/launch`, authorization, demo.launchBody),
    '',
    `3. Open that URL in a browser: the ${demo.spins} free spins play first, then paid spins against the sandbox wallet.`,
    '   Watch the bonus and the wallet callbacks:',
    '',
    curl('GET', `${input.gatewayUrl}/v1/bonus-call?playerId=${demo.playerId}`, authorization),
    `curl -s ${shellQuote(`${input.sandboxUrl}/admin/transactions?operatorId=${input.operator.id}&playerId=${demo.playerId}`)}`,
    '',
    'Read next: README.md, docs/operator-guide.md (the API, the callbacks, the player API), docs/architecture.md.',
    'Ctrl-C stops the platform; the data stays for the next start.',
    '',
  ].join('\n');
}
