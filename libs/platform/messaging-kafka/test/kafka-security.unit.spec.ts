/**
 * TLS and SASL settings of the Kafka client: what the environment turns into
 * kafkajs' `ssl` and `sasl` options, read from real files as a mounted Secret provides them, and
 * every combination that is refused at start-up instead of failing (or leaking) on first contact.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { kafkaSecurity } from '../src/kafka-security.js';
import { kafkaSettings } from '../src/open.js';

const dir = mkdtempSync(join(tmpdir(), 'kafka-security-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const CA = '-----BEGIN CERTIFICATE-----\nca\n-----END CERTIFICATE-----\n';
const CERT = '-----BEGIN CERTIFICATE-----\nclient\n-----END CERTIFICATE-----\n';
const KEY = '-----BEGIN PRIVATE KEY-----\nkey\n-----END PRIVATE KEY-----\n';

describe('kafkaSecurity', () => {
  it('is plaintext without authentication when nothing is set', () => {
    expect(kafkaSecurity({})).toEqual({});
    expect(kafkaSecurity({ KAFKA_TLS: 'false', KAFKA_SASL_MECHANISM: '' })).toEqual({});
  });

  it('KAFKA_TLS=true alone: TLS that verifies the brokers against the system CAs', () => {
    expect(kafkaSecurity({ KAFKA_TLS: 'true' })).toEqual({ ssl: { rejectUnauthorized: true } });
  });

  it('a CA file means TLS against that CA; a client certificate and key are sent when both are given', () => {
    const env = {
      KAFKA_TLS_CA_FILE: file('ca.pem', CA),
      KAFKA_TLS_CERT_FILE: file('client.pem', CERT),
      KAFKA_TLS_KEY_FILE: file('client.key', KEY),
    };
    expect(kafkaSecurity(env)).toEqual({ ssl: { rejectUnauthorized: true, ca: CA, cert: CERT, key: KEY } });
  });

  it.each(['scram-sha-256', 'SCRAM-SHA-512'])(
    'SASL %s with the password from a file, its final newline dropped',
    (mechanism) => {
      const env = {
        KAFKA_TLS: 'true',
        KAFKA_SASL_MECHANISM: mechanism,
        KAFKA_SASL_USERNAME: 'reelstream',
        KAFKA_SASL_PASSWORD_FILE: file('password', 's3cret\n'),
      };
      expect(kafkaSecurity(env).sasl).toEqual({
        mechanism: mechanism.toLowerCase(),
        username: 'reelstream',
        password: 's3cret',
      });
    },
  );

  it('SCRAM may run without TLS (the password never crosses the wire); PLAIN may not', () => {
    const sasl = { KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' };
    expect(kafkaSecurity({ ...sasl, KAFKA_SASL_MECHANISM: 'scram-sha-256' })).toEqual({
      sasl: { mechanism: 'scram-sha-256', username: 'u', password: 'p' },
    });
    expect(() => kafkaSecurity({ ...sasl, KAFKA_SASL_MECHANISM: 'plain' })).toThrow(
      /password in clear.*KAFKA_TLS=true/,
    );
    expect(kafkaSecurity({ ...sasl, KAFKA_SASL_MECHANISM: 'plain', KAFKA_TLS: 'true' }).sasl).toEqual({
      mechanism: 'plain',
      username: 'u',
      password: 'p',
    });
  });

  it.each([
    [{ KAFKA_TLS_CERT_FILE: file('lonely.pem', CERT) }, /KAFKA_TLS_CERT_FILE and KAFKA_TLS_KEY_FILE go together/],
    [{ KAFKA_TLS: 'yes' }, /KAFKA_TLS must be true or false/],
    [{ KAFKA_TLS_CA_FILE: '/nonexistent/ca.pem' }, /KAFKA_TLS_CA_FILE=\/nonexistent\/ca.pem cannot be read/],
    [
      { KAFKA_SASL_MECHANISM: 'gssapi', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' },
      /must be one of plain, scram-sha-256, scram-sha-512/,
    ],
    [{ KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_PASSWORD: 'p' }, /needs KAFKA_SASL_USERNAME/],
    [
      { KAFKA_SASL_MECHANISM: 'scram-sha-256', KAFKA_SASL_USERNAME: 'u' },
      /needs KAFKA_SASL_PASSWORD or KAFKA_SASL_PASSWORD_FILE/,
    ],
    [{ KAFKA_SASL_USERNAME: 'u' }, /KAFKA_SASL_MECHANISM is not/],
  ])('refuses %j with a configuration error naming the variable', (env, message) => {
    expect(() => kafkaSecurity(env)).toThrow(message);
    try {
      kafkaSecurity(env);
    } catch (error) {
      expect(error).toMatchObject({ code: 'CONFIGURATION_INVALID' });
    }
  });

  it('refuses a password given both ways', () => {
    const env = {
      KAFKA_SASL_MECHANISM: 'scram-sha-256',
      KAFKA_SASL_USERNAME: 'u',
      KAFKA_SASL_PASSWORD: 'p',
      KAFKA_SASL_PASSWORD_FILE: file('password2', 'q'),
    };
    expect(() => kafkaSecurity(env)).toThrow(/not both/);
  });

  it('reads KAFKA_AUTO_CREATE_TOPICS with the same true/false rule, true when unset', () => {
    expect(kafkaSettings({}, {}).autoCreateTopics).toBe(true);
    expect(kafkaSettings({}, { KAFKA_AUTO_CREATE_TOPICS: 'FALSE' }).autoCreateTopics).toBe(false);
    expect(() => kafkaSettings({}, { KAFKA_AUTO_CREATE_TOPICS: 'no' })).toThrow(
      /KAFKA_AUTO_CREATE_TOPICS must be true or false/,
    );
  });

  it('is part of the settings checked before the bus connects', () => {
    expect(kafkaSettings({}, { KAFKA_TLS: 'true' }).security).toEqual({ ssl: { rejectUnauthorized: true } });
    expect(() =>
      kafkaSettings({}, { KAFKA_SASL_MECHANISM: 'plain', KAFKA_SASL_USERNAME: 'u', KAFKA_SASL_PASSWORD: 'p' }),
    ).toThrow(/password in clear/);
  });
});
