/**
 * Peak resident memory of one process whose operator wallet pads its replies: a wallet at
 * 127.0.0.1 answers every callback with a valid `{balance, statusCode}` padded with white space to
 * REPLY_MB (default 150) MB, and CALLS (default 4) callbacks go out at once through
 * HttpOperatorWallet, the dispatcher's client. Prints each outcome and the process's peak RSS.
 *   node --import tsx bench/oversized-replies.ts [REPLY_MB] [CALLS]
 * The wallet server runs in a child process, so the figure is the client's alone.
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { parseOperatorsConfig, type OperatorConfig } from '@reelstream/contracts';
import { callbackFor } from '@reelstream/wallet-domain';
import { HttpOperatorWallet } from '@reelstream/wallet-adapters';

const replyMb = Number(process.argv[2] ?? 150);
const calls = Number(process.argv[3] ?? 4);

if (process.env['OVERSIZED_WALLET'] === '1') {
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"balance":100,"statusCode":"OK"');
      let left = replyMb;
      const more = (): void => {
        while (left > 0) {
          left -= 1;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('}');
      };
      res.on('close', () => (left = 0));
      more();
    });
  }).listen(0, '127.0.0.1', function (this: Server) {
    process.send?.((this.address() as AddressInfo).port);
  });
} else {
  const child = fork(new URL(import.meta.url).pathname, [String(replyMb)], {
    env: { ...process.env, OVERSIZED_WALLET: '1' },
    execArgv: ['--import', 'tsx'],
  });
  const port = await new Promise<number>((resolve) => child.once('message', (message) => resolve(Number(message))));
  const operator = parseOperatorsConfig([
    {
      id: 'padded',
      name: 'Padded replies',
      apiToken: 'padded-api-token-0123456789',
      callbackUrl: `http://127.0.0.1:${port}/wallet`,
      signingSecret: 'padded-signing-secret-0123456789',
      currency: 'EUR',
    },
  ])[0] as OperatorConfig;
  const wallet = new HttpOperatorWallet({ maxSockets: calls });
  const before = process.memoryUsage().rss;
  const results = await Promise.all(
    Array.from({ length: calls }, (_, index) =>
      wallet.call(
        operator,
        callbackFor({
          command: 'bet',
          transactionId: 9_000 + index,
          operatorId: 'padded',
          playerId: 'p',
          roundId: 9_100 + index,
          providerId: 7,
          gameId: 1001,
          currency: 'EUR',
          bonusId: 0,
          requestedAt: new Date().toISOString(),
          amountMinor: 150,
          isBonusBusy: false,
        }),
        120_000,
      ),
    ),
  );
  await wallet.close();
  child.kill();
  for (const result of results)
    console.log(JSON.stringify(result.kind === 'reply' ? result : { ...result, reason: result.reason.slice(0, 100) }));
  const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
  console.log(
    `${calls} replies of ${replyMb} MB: RSS before ${mib(before)}, peak ${mib(process.resourceUsage().maxRSS * 1024)}`,
  );
}
