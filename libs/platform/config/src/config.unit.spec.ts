import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { apiTokenDigest, OperatorsConfigError } from '@reelstream/contracts';
import {
  booleanFlag,
  catalogFile,
  ConfigError,
  DEFAULT_CATALOG_FILE,
  listenHost,
  parseEnv,
  platformEnvShape,
  port,
  resolveBackends,
} from './env.js';
import { DEMO_OPERATOR, demoOperators, loadOperators, OperatorDirectory } from './operators.js';

const dir = mkdtempSync(join(tmpdir(), 'reelstream-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const appEnv = z.object({ ...platformEnvShape, GATEWAY_PORT: port(8080) });

describe('parseEnv', () => {
  it('fills the embedded defaults (docs/configuration.md)', () => {
    const config = parseEnv(appEnv, {});
    expect(config.GATEWAY_PORT).toBe(8080);
    expect(resolveBackends(config)).toEqual({
      dataDir: './data',
      eventStoreUrl: 'sqlite:./data/reelstream.db',
      busUrl: 'sqlite:./data/reelstream.db',
    });
  });

  it('derives the back ends from DATA_DIR and keeps explicit URLs', () => {
    const config = parseEnv(appEnv, { DATA_DIR: '/var/lib/reelstream/', BUS_URL: 'kafka://k1:9092,k2:9092' });
    expect(resolveBackends(config)).toEqual({
      dataDir: '/var/lib/reelstream/',
      eventStoreUrl: 'sqlite:/var/lib/reelstream/reelstream.db',
      busUrl: 'kafka://k1:9092,k2:9092',
    });
  });

  it('reads boolean flags', () => {
    const flags = z.object({ DEMO: booleanFlag(true), OFF: booleanFlag(false) });
    expect(parseEnv(flags, {})).toEqual({ DEMO: true, OFF: false });
    expect(parseEnv(flags, { DEMO: 'no', OFF: '1' })).toEqual({ DEMO: false, OFF: true });
    expect(() => parseEnv(flags, { DEMO: 'maybe' })).toThrow(/DEMO: must be true or false/);
  });

  it('reads a listen host: every interface (unset) unless one is named', () => {
    const hosts = z.object({ HOST: listenHost() });
    expect(parseEnv(hosts, {}).HOST).toBeUndefined();
    expect(parseEnv(hosts, { HOST: '127.0.0.1' }).HOST).toBe('127.0.0.1');
  });

  it('treats an empty variable as unset', () => {
    expect(parseEnv(appEnv, { GATEWAY_PORT: '' }).GATEWAY_PORT).toBe(8080);
  });

  it('names every bad variable and its value', () => {
    const attempt = () => parseEnv(appEnv, { GATEWAY_PORT: '80a', BUS_URL: 'redis://x', WORKER_ID: '1024' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      expect(problems).toMatch(/GATEWAY_PORT: must be a port number \(got "80a"\)/);
      expect(problems).toMatch(/BUS_URL: must be sqlite:<path>, or kafka:\/\/host:port/);
      expect(problems).toMatch(/WORKER_ID: .*\(got "1024"\)/);
    }
  });
});

describe('loadOperators', () => {
  const demo = () => demoOperators('http://localhost:8082');

  it('runs the demo operator, wired to the sandbox, when none is configured', () => {
    const { operators, source } = loadOperators({}, demo);
    expect(source).toBe('demo');
    expect(operators).toHaveLength(1);
    expect(operators[0]).toMatchObject({
      id: 'demo',
      currency: 'EUR',
      callbackUrl: 'http://localhost:8082/wallet/demo',
    });
    expect(operators[0]?.apiTokenSha256).toBe(apiTokenDigest(DEMO_OPERATOR.apiToken));
  });

  const acme = {
    id: 'acme',
    name: 'Acme Casino',
    apiToken: 'acme-token-0123456789',
    callbackUrl: 'https://wallet.acme.example/callback',
    signingSecret: 'acme-secret-0123456789',
    currency: 'KRW',
    timeZone: 'Asia/Seoul',
  };

  it('reads OPERATORS_JSON, replacing the demo operator', () => {
    const { operators, source } = loadOperators({ OPERATORS_JSON: JSON.stringify([acme]) }, demo);
    expect(source).toBe('OPERATORS_JSON');
    expect(operators.map((o) => o.id)).toEqual(['acme']);
  });

  it('reads OPERATORS_FILE', () => {
    const file = join(dir, 'operators.json');
    writeFileSync(file, JSON.stringify([acme]));
    expect(loadOperators({ OPERATORS_FILE: file }, demo).operators[0]?.timeZone).toBe('Asia/Seoul');
  });

  it('names the bad key of a bad operator', () => {
    expect(() => loadOperators({ OPERATORS_JSON: JSON.stringify([{ ...acme, timeZone: 'Mars/Base' }]) }, demo)).toThrow(
      /operators\[0\]\.timeZone/,
    );
  });

  it('refuses an unreadable file, and both sources at once', () => {
    expect(() => loadOperators({ OPERATORS_FILE: join(dir, 'missing.json') }, demo)).toThrow(OperatorsConfigError);
    expect(() => loadOperators({ OPERATORS_FILE: 'x', OPERATORS_JSON: '[]' }, demo)).toThrow(/not both/);
  });
});

describe('production mode (NODE_ENV=production): unsafe operator configurations refuse to start', () => {
  const demo = () => demoOperators('http://localhost:8082');
  const acme = {
    id: 'acme',
    name: 'Acme Casino',
    apiToken: 'acme-token-4f9c2a7e1b',
    callbackUrl: 'https://wallet.acme.example/callback',
    signingSecret: 'acme-secret-8d3b6e0f2c',
    currency: 'EUR',
    signatureScheme: 'timestamp.body',
  };
  const production = (operators: unknown) => ({ NODE_ENV: 'production', OPERATORS_JSON: JSON.stringify(operators) });
  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadOperators(env, demo);
      return [];
    } catch (error) {
      if (error instanceof OperatorsConfigError) return [...error.problems];
      throw error;
    }
  };

  it('runs a sound configuration, and the same unsafe one outside production', () => {
    expect(loadOperators(production([acme]), demo).operators.map((operator) => operator.id)).toEqual(['acme']);
    const unsafe = { ...acme, apiToken: DEMO_OPERATOR.apiToken, callbackUrl: 'http://169.254.169.254/latest' };
    expect(loadOperators({ OPERATORS_JSON: JSON.stringify([unsafe]) }, demo).operators).toHaveLength(1);
  });

  it('refuses the demo operator when no operators are configured', () => {
    expect(problemsOf({ NODE_ENV: 'production' })).toEqual([
      "NODE_ENV=production needs OPERATORS_JSON or OPERATORS_FILE: the demo operator's API token and signing secret are public",
    ]);
  });

  it('refuses the demo token (raw or as its digest) and the demo signing secret', () => {
    expect(
      problemsOf(
        production([{ ...acme, apiToken: DEMO_OPERATOR.apiToken, signingSecret: DEMO_OPERATOR.signingSecret }]),
      ),
    ).toEqual([
      'operators[0].apiToken: is the public demo token; give this operator its own',
      'operators[0].signingSecret: is the public demo signing secret; give this operator its own',
    ]);
    const { apiToken: _token, ...withoutToken } = acme;
    expect(
      problemsOf(production([{ ...withoutToken, apiTokenSha256: apiTokenDigest(DEMO_OPERATOR.apiToken) }])),
    ).toEqual(['operators[0].apiToken: is the public demo token; give this operator its own']);
  });

  it('refuses a token or secret of one repeated character, and a token equal to its signing secret', () => {
    expect(
      problemsOf(production([{ ...acme, apiToken: 'a'.repeat(16), signingSecret: ['b'.repeat(16), 'c'.repeat(20)] }])),
    ).toEqual([
      'operators[0].apiToken: is one character repeated; use a long random token',
      'operators[0].signingSecret[0]: is one character repeated; use a long random secret',
      'operators[0].signingSecret[1]: is one character repeated; use a long random secret',
    ]);
    expect(problemsOf(production([{ ...acme, signingSecret: acme.apiToken }]))).toEqual([
      "operators[0].signingSecret: is the operator's API token; the token and the signing secret must differ",
    ]);
  });

  it('refuses link-local and metadata addresses always, loopback and private ones unless the operator allows them', () => {
    const at = (callbackUrl: string, more: object = {}) => problemsOf(production([{ ...acme, callbackUrl, ...more }]));
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fe80::1]/wallet',
      'http://metadata.google.internal/computeMetadata',
      'http://[::ffff:169.254.169.254]/',
      'http://2852039166/',
    ])
      expect({ url, problems: at(url, { allowPrivateAddresses: true }) }).toEqual({
        url,
        problems: [expect.stringMatching(/^operators\[0\]\.callbackUrl: .* is a link-local or cloud metadata address/)],
      });
    for (const url of [
      'http://127.0.0.1:8082/w',
      'http://localhost/w',
      'http://[::1]/w',
      'http://10.1.2.3/w',
      'http://192.168.0.9/w',
      'http://172.20.0.1/w',
      'http://[fd12::1]/w',
    ]) {
      expect({ url, problems: at(url) }).toEqual({
        url,
        problems: [
          expect.stringMatching(
            /^operators\[0\]\.callbackUrl: .* is a (loopback|private) address; set "allowPrivateAddresses": true/,
          ),
        ],
      });
      expect({ url, problems: at(url, { allowPrivateAddresses: true }) }).toEqual({ url, problems: [] });
    }
    expect(problemsOf(production([{ ...acme, webhookUrl: 'http://10.0.0.5/hooks' }]))).toEqual([
      expect.stringMatching(/^operators\[0\]\.webhookUrl: 10\.0\.0\.5 is a private address/),
    ]);
    expect(at('http://172.32.0.1/w')).toEqual([]);
  });

  it('needs a version 1 (bare array) operator to name its signatureScheme; version 2 defaults to timestamp.body', () => {
    const { signatureScheme: _scheme, ...unnamed } = acme;
    expect(problemsOf(production([unnamed]))).toEqual([
      expect.stringMatching(
        /^operators\[0\]\.signatureScheme: name it in production: "body" keeps what this operator signs today/,
      ),
    ]);
    expect(
      loadOperators(production([{ ...unnamed, signatureScheme: 'body' }]), demo).operators[0]?.signatureScheme,
    ).toBe('body');
    expect(loadOperators(production({ version: 2, operators: [unnamed] }), demo).operators[0]?.signatureScheme).toBe(
      'timestamp.body',
    );
    expect(loadOperators({ OPERATORS_JSON: JSON.stringify([unnamed]) }, demo).operators[0]?.signatureScheme).toBe(
      'body',
    );
  });
});

describe('OperatorDirectory', () => {
  const { operators } = loadOperators(
    {
      OPERATORS_JSON: JSON.stringify([
        {
          id: 'a',
          name: 'A',
          apiToken: 'token-of-operator-a',
          callbackUrl: 'http://a.example/cb',
          signingSecret: 'secret-of-operator-a',
          currency: 'EUR',
        },
        {
          id: 'b',
          name: 'B',
          apiTokenSha256: apiTokenDigest('token-of-operator-b'),
          callbackUrl: 'http://b.example/cb',
          signingSecret: 'secret-of-operator-b',
          currency: 'USD',
        },
      ]),
    },
    () => [],
  );
  const directory = new OperatorDirectory(operators);

  const idOf = (authorization: string) => {
    const answer = directory.authenticate(authorization);
    return 'id' in answer ? answer.id : answer.code;
  };

  it('authenticates a bearer token configured raw or as its digest', () => {
    expect(idOf('Bearer token-of-operator-a')).toBe('a');
    expect(idOf('Bearer token-of-operator-b')).toBe('b');
  });

  it('refuses unknown tokens, prefixes and the digest itself', () => {
    expect(idOf('Bearer token-of-operator-c')).toBe('UNAUTHORIZED');
    expect(idOf('Bearer token-of-operator-')).toBe('UNAUTHORIZED');
    expect(idOf(`Bearer ${apiTokenDigest('token-of-operator-b')}`)).toBe('UNAUTHORIZED');
    expect(directory.authenticate(undefined)).toMatchObject({ type: 'Refusal', code: 'UNAUTHORIZED' });
  });

  it('finds operators by id', () => {
    expect(directory.get('b')?.currency).toBe('USD');
    expect(directory.get('z')).toBeUndefined();
  });
});

describe('CATALOG_FILE', () => {
  const env = z.object({ CATALOG_FILE: catalogFile() });

  it("is the repository's catalog (config/catalog.json, found from any working directory) unless set", () => {
    expect(DEFAULT_CATALOG_FILE).toMatch(/\/config\/catalog\.json$/);
    expect(parseEnv(env, {}).CATALOG_FILE).toBe(DEFAULT_CATALOG_FILE);
    expect(parseEnv(env, { CATALOG_FILE: '/etc/reelstream/catalog.json' }).CATALOG_FILE).toBe(
      '/etc/reelstream/catalog.json',
    );
  });
});
