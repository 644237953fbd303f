/**
 * `npm run conformance -- --url <callback URL> --secret <secret> [--player <id>] [--currency EUR]
 * [--id-encoding string|number] [--signature-scheme timestamp.body|body (default timestamp.body)] [--provider 1] [--game 1]`: runs the conformance suite against an
 * operator wallet and prints the pass/fail table. Exit code 0 when every check passes, 1 when one
 * fails, 2 on bad arguments. The player must exist in the wallet with a few units of balance.
 * `--webhook-url <URL>` also runs the bonus webhook receiver checks against that URL (operator
 * guide 7.3); given without `--url`, only those.
 */
import { parseArgs } from 'node:util';
import { formatReport, runConformance, runWebhookConformance } from '@reelstream/sandbox-conformance';

const USAGE =
  'usage: npm run conformance -- --url <callback URL> | --webhook-url <webhook URL> --secret <signing secret> [--player <playerId>] [--currency <ISO 4217>] [--id-encoding string|number] [--signature-scheme body|timestamp.body] [--provider <id>] [--game <id>]';

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        player: { type: 'string' },
        currency: { type: 'string' },
        'id-encoding': { type: 'string' },
        'signature-scheme': { type: 'string' },
        provider: { type: 'string' },
        game: { type: 'string' },
        'webhook-url': { type: 'string' },
      },
      strict: true,
    }));
    if ((!values.url && !values['webhook-url']) || !values.secret)
      throw new Error('--secret and at least one of --url and --webhook-url are required');
    if (values['id-encoding'] !== undefined && !['string', 'number'].includes(values['id-encoding']))
      throw new Error('--id-encoding must be string or number');
    if (values['signature-scheme'] !== undefined && !['body', 'timestamp.body'].includes(values['signature-scheme']))
      throw new Error('--signature-scheme must be body or timestamp.body');
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const reports = [];
  if (values.url)
    reports.push(
      await runConformance({
        url: values.url,
        secret: values.secret,
        ...(values.player === undefined ? {} : { playerId: values.player }),
        ...(values.currency === undefined ? {} : { currency: values.currency }),
        ...(values['id-encoding'] === undefined ? {} : { encoding: values['id-encoding'] as 'string' | 'number' }),
        ...(values['signature-scheme'] === undefined
          ? {}
          : { signatureScheme: values['signature-scheme'] as 'body' | 'timestamp.body' }),
        ...(values.provider === undefined ? {} : { providerId: Number(values.provider) }),
        ...(values.game === undefined ? {} : { gameCode: Number(values.game) }),
      }),
    );
  if (values['webhook-url'])
    reports.push(
      await runWebhookConformance({
        url: values['webhook-url'],
        secret: values.secret,
        ...(values.player === undefined ? {} : { playerId: values.player }),
        ...(values.currency === undefined ? {} : { currency: values.currency }),
        ...(values['signature-scheme'] === undefined
          ? {}
          : { signatureScheme: values['signature-scheme'] as 'body' | 'timestamp.body' }),
      }),
    );
  process.stdout.write(`${reports.map((report) => formatReport(report)).join('\n\n')}\n`);
  return reports.every((report) => report.passed) ? 0 : 1;
}

process.exitCode = await main();
