/**
 * `npm run conformance -- --url <callback URL> --secret <secret> [--player <id>] [--currency EUR]
 * [--id-encoding string|number] [--signature-scheme body|timestamp.body] [--provider 1] [--game 1]`: runs the conformance suite against an
 * operator wallet and prints the pass/fail table. Exit code 0 when every check passes, 1 when one
 * fails, 2 on bad arguments. The player must exist in the wallet with a few units of balance.
 */
import { parseArgs } from 'node:util';
import { formatReport, runConformance } from '@reelstream/conformance';

const USAGE =
  'usage: npm run conformance -- --url <callback URL> --secret <signing secret> [--player <playerId>] [--currency <ISO 4217>] [--id-encoding string|number] [--signature-scheme body|timestamp.body] [--provider <id>] [--game <id>]';

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
      },
      strict: true,
    }));
    if (!values.url || !values.secret) throw new Error('--url and --secret are required');
    if (values['id-encoding'] !== undefined && !['string', 'number'].includes(values['id-encoding']))
      throw new Error('--id-encoding must be string or number');
    if (values['signature-scheme'] !== undefined && !['body', 'timestamp.body'].includes(values['signature-scheme']))
      throw new Error('--signature-scheme must be body or timestamp.body');
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const report = await runConformance({
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
  });
  process.stdout.write(`${formatReport(report)}\n`);
  return report.passed ? 0 : 1;
}

process.exitCode = await main();
