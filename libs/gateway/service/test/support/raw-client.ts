import http from 'node:http';

/**
 * A lean keep-alive client for request floods (the fuzz test): node's http.request costs a
 * fraction of fetch per request, and the server shares the CPU with it.
 */
export class RawClient {
  private readonly agent: http.Agent;
  private readonly url: URL;

  constructor(baseUrl: string, maxSockets: number) {
    this.url = new URL(baseUrl);
    this.agent = new http.Agent({ keepAlive: true, maxSockets });
  }

  post(path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
    return this.request('POST', path, body, headers);
  }

  request(
    method: 'GET' | 'POST',
    path: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; text: string }> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: this.url.hostname,
          port: this.url.port,
          path,
          method,
          agent: this.agent,
          headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
          );
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
