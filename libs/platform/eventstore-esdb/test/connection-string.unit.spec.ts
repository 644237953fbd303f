import { describe, expect, it } from '@jest/globals';
import { InvalidConnectionStringError, redact, validateConnectionString } from '../src/connection-string.js';

describe('connection string validation', () => {
  it('accepts single-node, cluster and discovery strings', () => {
    for (const good of [
      'esdb://localhost:2113?tls=false',
      'esdb://localhost:2113',
      'esdb://admin:changeit@eventstore.svc:2113?tls=true&tlsVerifyCert=false',
      'esdb://node1:2113,node2:2113,node3:2113?nodePreference=leader',
      'esdb+discover://cluster.example.com:2113',
      'esdb://[::1]:2113?tls=false',
    ]) {
      expect(validateConnectionString(good)).toBe(good);
    }
  });

  it('refuses other schemes, missing hosts and bad ports', () => {
    for (const bad of [
      'http://localhost:2113',
      'localhost:2113',
      'esdb://',
      'esdb://?tls=false',
      'esdb://host:99999',
      'esdb://bad host:2113',
      'sqlite:./data/x.db',
    ]) {
      expect(() => validateConnectionString(bad)).toThrow(InvalidConnectionStringError);
    }
  });

  it('refuses throwOnAppendFailure=false, which would make conflicts silent', () => {
    expect(() => validateConnectionString('esdb://localhost:2113?tls=false&throwOnAppendFailure=false')).toThrow(
      /silent/,
    );
    expect(validateConnectionString('esdb://localhost:2113?throwOnAppendFailure=true')).toBe(
      'esdb://localhost:2113?throwOnAppendFailure=true',
    );
  });

  it('keeps passwords out of error messages', () => {
    expect(redact('esdb://admin:changeit@host:2113')).toBe('esdb://admin:***@host:2113');
    try {
      validateConnectionString('esdb://admin:changeit@host:0?tls=false');
      throw new Error('should have refused port 0');
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidConnectionStringError);
      expect((error as Error).message).not.toContain('changeit');
    }
  });
});
