/**
 * The operator's bonus webhook receiver of the end-to-end tests: an HTTP server on a free port for
 * the test file (started in its beforeAll, closed in its afterAll) that parses every delivery as a
 * bonus webhook and answers the status `answer` gives it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from '@jest/globals';
import { bonusWebhook, type BonusWebhook } from '@reelstream/contracts';

export interface WebhookDelivery {
  readonly webhook: BonusWebhook;
  /** The request body as sent (what the signature is over). */
  readonly body: Buffer;
  readonly headers: IncomingHttpHeaders;
}

/** Registers the receiver's start and stop with the test file; `url()` is its address once started. */
export function webhookReceiver(answer: (delivery: WebhookDelivery) => number): { url(): string } {
  let server: Server | undefined;
  let url = '';
  beforeAll(async () => {
    const started = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const body = Buffer.concat(chunks);
        const webhook = bonusWebhook.parse(JSON.parse(body.toString('utf8')));
        response.writeHead(answer({ webhook, body, headers: request.headers })).end();
      });
    });
    server = started;
    await new Promise<void>((resolve) => started.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(started.address() as AddressInfo).port}/hooks/bonus`;
  });
  afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));
  return { url: () => url };
}
