/**
 * The sandbox as `npm start` runs it is a wallet anyone reachable could drain through its admin
 * API: it listens on loopback unless told otherwise (and elsewhere only with an admin token),
 * checks the admin token in constant time, and refuses a body over its 64 kB limit with 413 (not 500).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { adminTokenMatches, sandboxConfigFromEnv, startOperatorSandbox, type OperatorSandbox } from '../src/index.js';
import { admin, postRaw, sign } from './sandbox-client.js';
import { operatorDirectory, testOperator } from './test-sandbox.js';

const SECRET = 'exposure-test-secret-000001';
const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const operators = operatorDirectory([testOperator('acme', SECRET)]);
const dir = mkdtempSync(join(tmpdir(), 'sandbox-exposure-'));
const logged: string[] = [];
let sandbox: OperatorSandbox;

beforeAll(async () => {
  const { config } = sandboxConfigFromEnv({
    DATA_DIR: dir,
    SANDBOX_PORT: '0',
    SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN,
    OPERATORS_JSON: '',
    OPERATORS_FILE: '',
  });
  sandbox = await startOperatorSandbox(
    { operators, logger: { info: () => undefined, error: (msg) => void logged.push(msg) } },
    config,
  );
});
afterAll(async () => {
  await sandbox?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('the operator sandbox exposed to no one by default', () => {
  it('listens on 127.0.0.1 unless SANDBOX_HOST says otherwise, and not on the machine’s other addresses', async () => {
    expect(sandboxConfigFromEnv({ DATA_DIR: dir }).config.host).toBe('127.0.0.1');
    expect(
      sandboxConfigFromEnv({ DATA_DIR: dir, SANDBOX_HOST: '0.0.0.0', SANDBOX_ADMIN_TOKEN: ADMIN_TOKEN }).config.host,
    ).toBe('0.0.0.0');
    expect(sandbox.url).toBe(`http://127.0.0.1:${sandbox.port}`);
    expect(await accepts('127.0.0.1', sandbox.port)).toBe(true);
    const external = Object.values(networkInterfaces())
      .flat()
      .filter((address) => address !== undefined && address.family === 'IPv4' && !address.internal)
      .map((address) => address?.address ?? '');
    for (const address of external)
      expect({ address, accepts: await accepts(address, sandbox.port) }).toEqual({ address, accepts: false });
  });

  it('refuses to start on an address other than loopback without SANDBOX_ADMIN_TOKEN', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.7', 'operator-sandbox'])
      expect(() => sandboxConfigFromEnv({ DATA_DIR: dir, SANDBOX_HOST: host })).toThrow(
        `SANDBOX_ADMIN_TOKEN: required when SANDBOX_HOST is not a loopback address (got "${host}")`,
      );
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1'])
      expect(sandboxConfigFromEnv({ DATA_DIR: dir, SANDBOX_HOST: host }).config.host).toBe(host);
  });

  it('lets only the exact admin token in: missing, wrong, shorter, longer and differently cased tokens get 401', async () => {
    const players = `${sandbox.url}/admin/players/acme/p1`;
    expect((await admin('PUT', players, { currency: 'EUR', balance: 5 }, ADMIN_TOKEN)).status).toBe(200);
    for (const token of [
      undefined,
      'admin-token-0123456789abcdeX',
      ADMIN_TOKEN.slice(0, -1),
      `${ADMIN_TOKEN}0`,
      ADMIN_TOKEN.toUpperCase(),
      '',
    ]) {
      expect({ token, status: (await admin('GET', players, undefined, token)).status }).toEqual({ token, status: 401 });
    }
    expect(adminTokenMatches(`Bearer ${ADMIN_TOKEN}`, ADMIN_TOKEN)).toBe(true);
    expect(adminTokenMatches(ADMIN_TOKEN, ADMIN_TOKEN)).toBe(false);
    expect(adminTokenMatches(undefined, ADMIN_TOKEN)).toBe(false);
  });

  it('answers 413 with a body naming the limit to a callback or an admin body over 64 kB, and logs no fault', async () => {
    const big = JSON.stringify({ command: 'bet', padding: 'x'.repeat(70 * 1024) });
    const callback = await postRaw(`${sandbox.url}/wallet/acme`, big, sign(big, SECRET));
    expect(callback.status).toBe(413);
    expect(callback.body).toEqual({
      balance: 0,
      statusCode: 'ERR_UNKNOWN',
      message: expect.stringMatching(/larger than 65536 bytes \(64 kB\)/),
    });

    const adminAnswer = await admin(
      'PUT',
      `${sandbox.url}/admin/players/acme/p2`,
      { currency: 'EUR', balance: 5, padding: 'x'.repeat(70 * 1024) },
      ADMIN_TOKEN,
    );
    expect(adminAnswer).toEqual({
      status: 413,
      body: { error: expect.stringMatching(/larger than 65536 bytes \(64 kB\)/) },
    });
    expect(logged).toEqual([]);
  });
});
