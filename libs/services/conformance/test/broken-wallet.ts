/**
 * A deliberately broken operator wallet, to show the kit failing for the right reasons: it
 * ignores signatures, applies every request again (no idempotency, so a reused id passes too),
 * lets bets overdraw, credits a betwin's win before checking its bet, refuses cancels of unknown
 * transactions, refunds every cancel, and answers betwins late.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BrokenWallet {
  url: string;
  stop(): Promise<void>;
}

export async function startBrokenWallet(options: { betwinDelayMs: number }): Promise<BrokenWallet> {
  let balance = 100;
  const bets = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const answer = (statusCode: string, delayMs = 0) =>
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ balance: Math.round(balance * 100) / 100, statusCode }));
        }, delayMs);
      switch (body['command']) {
        case 'bet':
          balance -= Number(body['amount']);
          bets.set(String(body['transactionId']), Number(body['amount']));
          return answer('OK');
        case 'win':
          balance += Number(body['amount']);
          return answer('OK');
        case 'betwin': {
          balance += Number(body['winAmount']);
          if (balance < Number(body['betAmount'])) return answer('ERR_NOT_ENOUGH_MONEY', options.betwinDelayMs);
          balance -= Number(body['betAmount']);
          return answer('OK', options.betwinDelayMs);
        }
        case 'cancel': {
          const amount = bets.get(String(body['refTransactionId']));
          if (amount === undefined) return answer('ERR_UNKNOWN');
          balance += amount;
          return answer('OK');
        }
        default:
          return answer('ERR_UNKNOWN');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/wallet`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
