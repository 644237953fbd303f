/**
 * Paths that try to leave the page's asset directory, sent byte for byte (fetch would normalize
 * them): each is a file the page does not have, 404 in the envelope, and nothing logged as a fault.
 */
import { request } from 'node:http';
import { describe, expect, it } from '@jest/globals';
import { Stack } from './support/stack.js';

const stack = Stack.forTests();

function rawGet(url: string, path: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const sent = request({ host: hostname, port, path, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('GET /assets/… outside the asset directory', () => {
  it.each([
    ['raw ..', '/assets/../package.json'],
    ['raw .. many times', '/assets/../../../../../../etc/passwd'],
    ['raw .. after a file name', '/assets/game.js/../../src/index.ts'],
    ['encoded %2e%2e', '/assets/%2e%2e/package.json'],
    ['encoded %2E%2E twice', '/assets/%2E%2E/%2E%2E/package.json'],
    ['encoded slash ..%2f', '/assets/..%2f..%2fpackage.json'],
    ['encoded backslash ..%5c', '/assets/..%5c..%5cpackage.json'],
    ['double-encoded %252e%252e', '/assets/%252e%252e/package.json'],
    ['double-encoded slash %252e%252e%252f', '/assets/%252e%252e%252f%252e%252e%252fpackage.json'],
    ['a NUL byte', '/assets/game.js%00.png'],
    ['bad percent-encoding', '/assets/%e0%a4%a'],
  ])('%s: 404 ROUTE_NOT_FOUND, no fault logged', async (_name, path) => {
    const before = stack.logs.length;
    const answer = await rawGet(stack.gameServer.url, path);
    expect({ path, status: answer.status }).toEqual({ path, status: 404 });
    expect(JSON.parse(answer.body)).toMatchObject({ success: false, data: null, error: { code: 'ROUTE_NOT_FOUND' } });
    expect(
      stack.logs.slice(before).filter((line) => line.includes('"level":"error"') || line.includes('request failed')),
    ).toEqual([]);
  });

  it('still serves the files that are there', async () => {
    const answer = await rawGet(stack.gameServer.url, '/assets/game.js');
    expect(answer.status).toBe(200);
    expect((await rawGet(stack.gameServer.url, '/assets/./game.js')).status).toBe(200);
  });
});
