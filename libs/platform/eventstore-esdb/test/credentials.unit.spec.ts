/**
 * EventStoreDB credentials and CA from the environment: what they make of the
 * connection string the client reads — checked by the client's own parser, so the mapping is the
 * one a real connection would use — and which combinations are refused at start-up.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parseConnectionString } from '@eventstore/db-client/dist/Client/parseConnectionString.js';
import { withCredentials } from '../src/credentials.js';

const dir = mkdtempSync(join(tmpdir(), 'esdb-credentials-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('withCredentials', () => {
  it('leaves the connection string alone when nothing is set', () => {
    expect(withCredentials('esdb://es:2113?tls=false', {})).toBe('esdb://es:2113?tls=false');
  });

  it('adds the user and the password of a Secret file, encoded, which the client decodes back', () => {
    const merged = withCredentials('esdb+discover://es-0:2113,es-1:2113?keepAliveInterval=10000', {
      EVENTSTORE_USERNAME: 'reelstream',
      EVENTSTORE_PASSWORD_FILE: file('password', 'p@ss:w/rd?\n'),
    });
    expect(parseConnectionString(merged)).toMatchObject({
      dnsDiscover: true,
      defaultCredentials: { username: 'reelstream', password: 'p@ss:w/rd?' },
      keepAliveInterval: 10_000,
    });
  });

  it('adds the CA file as tlsCAFile, with or without other options', () => {
    expect(
      parseConnectionString(withCredentials('esdb://es:2113', { EVENTSTORE_TLS_CA_FILE: '/etc/es/ca.crt' })),
    ).toMatchObject({
      tlsCAFile: '/etc/es/ca.crt',
    });
    expect(
      parseConnectionString(
        withCredentials('esdb://es:2113?nodePreference=leader', { EVENTSTORE_TLS_CA_FILE: '/ca.crt' }),
      ),
    ).toMatchObject({ tlsCAFile: '/ca.crt', nodePreference: 'leader' });
  });

  it.each([
    [{ EVENTSTORE_USERNAME: 'u', EVENTSTORE_PASSWORD: 'p' }, 'esdb://a:b@es:2113', /has credentials too/],
    [{ EVENTSTORE_USERNAME: 'u' }, 'esdb://es:2113', /needs EVENTSTORE_PASSWORD or EVENTSTORE_PASSWORD_FILE/],
    [{ EVENTSTORE_PASSWORD: 'p' }, 'esdb://es:2113', /EVENTSTORE_USERNAME is not/],
    [
      { EVENTSTORE_USERNAME: 'u', EVENTSTORE_PASSWORD: 'p', EVENTSTORE_PASSWORD_FILE: '/x' },
      'esdb://es:2113',
      /not both/,
    ],
    [{ EVENTSTORE_USERNAME: 'u', EVENTSTORE_PASSWORD_FILE: '/nonexistent/pw' }, 'esdb://es:2113', /cannot be read/],
    [{ EVENTSTORE_TLS_CA_FILE: '/ca' }, 'esdb://es:2113?tlsCAFile=/other', /has tlsCAFile too/],
    [{ EVENTSTORE_TLS_CA_FILE: '/ca' }, 'esdb://es:2113?tls=false', /says tls=false/],
  ])('refuses %j with %s', (env, url, message) => {
    expect(() => withCredentials(url, env)).toThrow(message);
  });

  it('never puts a password in its error messages', () => {
    expect(() =>
      withCredentials('esdb://admin:changeit@es:2113', { EVENTSTORE_USERNAME: 'u', EVENTSTORE_PASSWORD: 'p' }),
    ).toThrow(/esdb:\/\/admin:\*\*\*@es:2113/);
  });
});
