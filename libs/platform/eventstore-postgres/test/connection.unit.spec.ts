/**
 * What EVENT_STORE_URL=postgres://… says: the adapter's own parameters taken out, the rest left to the
 * `pg` client, and where the one LISTEN connection goes (ADR 0046).
 */
import { describe, expect, it } from '@jest/globals';
import { listenConfig, parsePostgresUrl } from '../src/connection.js';
import { isConnectionFailure, PostgresUnreachableError, reaching } from '../src/errors.js';
import { tablesIn } from '../src/schema.js';

const TLS = 'sslmode=verify-full&sslrootcert=%2Fetc%2Fca.crt';

describe('parsePostgresUrl', () => {
  it('takes its own parameters out and leaves the others to the client', () => {
    const url = parsePostgresUrl(`postgres://app@pooler:6432/db?schema=events&poolSize=6&pollIntervalMs=50&${TLS}`);
    expect(url).toMatchObject({
      connectionString: `postgres://app@pooler:6432/db?${TLS}`,
      schema: 'events',
      poolSize: 6,
      pollIntervalMs: 50,
      listen: 'same',
      address: 'postgres://pooler:6432/db',
    });
  });

  it('defaults to the public schema, 10 connections, a 100 ms poll and LISTEN on the same server', () => {
    expect(parsePostgresUrl('postgresql://app@db/reelstream')).toMatchObject({
      schema: 'public',
      poolSize: 10,
      pollIntervalMs: 100,
      listen: 'same',
    });
  });

  it('reads listen as off, a host, a host and port, or a bracketed IPv6 address', () => {
    const listen = (value: string) => parsePostgresUrl(`postgres://app@pooler/db?listen=${value}`).listen;
    expect(listen('off')).toBe('off');
    expect(listen('primary.svc')).toEqual({ host: 'primary.svc', port: undefined });
    expect(listen('primary.svc:5433')).toEqual({ host: 'primary.svc', port: '5433' });
    expect(listen('[fd00::1]:5432')).toEqual({ host: '[fd00::1]', port: '5432' });
  });

  it.each([
    ['listen=', 'listen must be off or a host[:port] of the same database, got ""'],
    ['listen=primary:port', 'listen must be off or a host[:port] of the same database, got "primary:port"'],
    ['listen=user@primary', 'listen must be off or a host[:port] of the same database, got "user@primary"'],
    ['schema=Events', 'schema must be a lower-case SQL identifier'],
    ['schema=a;drop', 'schema must be a lower-case SQL identifier'],
    ['poolSize=0', 'poolSize must be a positive integer, got "0"'],
    ['pollIntervalMs=1.5', 'pollIntervalMs must be a positive integer, got "1.5"'],
  ])('refuses %s, naming the variable', (query, message) => {
    expect(() => parsePostgresUrl(`postgres://app@pooler/db?${query}`)).toThrow(`EVENT_STORE_URL: ${message}`);
  });
});

describe('listenConfig', () => {
  it('is the URL itself by default', () => {
    const url = parsePostgresUrl(`postgres://app@db:5432/reelstream?${TLS}`);
    expect(listenConfig(url)).toEqual({ connectionString: url.connectionString });
  });

  it('is none with listen=off', () => {
    expect(listenConfig(parsePostgresUrl('postgres://app@pooler/db?listen=off'))).toBeUndefined();
  });

  it('keeps the database, user, password and TLS parameters on the listen host, with its port or the default', () => {
    const withPort = parsePostgresUrl(`postgres://app:secret@pooler:6432/reelstream?listen=primary.svc:5433&${TLS}`);
    expect(listenConfig(withPort)).toEqual({
      connectionString: `postgres://app:secret@primary.svc:5433/reelstream?${TLS}`,
    });
    const withoutPort = parsePostgresUrl(`postgres://app@pooler:6432/reelstream?listen=primary.svc&${TLS}`);
    expect(listenConfig(withoutPort)).toEqual({ connectionString: `postgres://app@primary.svc/reelstream?${TLS}` });
  });
});

describe('tablesIn', () => {
  it('names every table with its schema', () => {
    expect(tablesIn('events')).toEqual({
      events: 'events.es_events',
      checkpoints: 'events.es_checkpoints',
      leases: 'events.es_leases',
    });
  });
});

describe('a lost connection', () => {
  const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

  it('is told from a failed statement: socket errors, SQLSTATE class 08, shutdowns, too many clients, the client’s own words', () => {
    for (const error of [
      withCode('connect ECONNREFUSED 10.0.0.1:5432', 'ECONNREFUSED'),
      withCode('read ECONNRESET', 'ECONNRESET'),
      withCode('server conn crashed?', '08P01'),
      withCode('terminating connection due to administrator command', '57P01'),
      withCode('sorry, too many clients already', '53300'),
      new Error('Connection terminated unexpectedly'),
      new Error('Client has encountered a connection error and is not queryable'),
    ])
      expect([error.message, isConnectionFailure(error)]).toEqual([error.message, true]);
    for (const error of [
      withCode('duplicate key value violates unique constraint', '23505'),
      withCode('relation "es_events" does not exist', '42P01'),
      new Error('stream kept changing'),
      'ECONNREFUSED',
    ])
      expect([String(error), isConnectionFailure(error)]).toEqual([String(error), false]);
  });

  it('comes out of a call as the retriable PostgresUnreachableError naming the server; any other error as it was', async () => {
    const lost = await reaching('postgres://pooler:5432/db', () =>
      Promise.reject(new Error('Connection terminated unexpectedly')),
    ).catch((error: unknown) => error);
    expect(lost).toBeInstanceOf(PostgresUnreachableError);
    expect(lost).toMatchObject({
      retriable: true,
      message: 'cannot reach PostgreSQL at postgres://pooler:5432/db: Connection terminated unexpectedly',
    });
    const refused = withCode('duplicate key value violates unique constraint', '23505');
    await expect(reaching('postgres://pooler:5432/db', () => Promise.reject(refused))).rejects.toBe(refused);
  });
});
