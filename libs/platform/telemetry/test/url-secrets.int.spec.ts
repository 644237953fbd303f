import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { redactSpanUrlSecrets, redactUrlSecrets } from '../src/url-secrets.js';
import { installTracing } from './tracing-harness.js';

const run = promisify(execFile);
/** Shaped like a real session token: 32 random bytes, base64url. */
const token = 'q7Vd0w-Zr3kP9sT_x2YbN4mC8hJ6fL1aE5uG0iKoQzw';

describe('redactUrlSecrets', () => {
  it.each([
    [`/launch?token=${token}`, '/launch?token=REDACTED'],
    [`/launch?lang=en&token=${token}&demo=1`, '/launch?lang=en&token=REDACTED&demo=1'],
    [`token=${token}&lang=en`, 'token=REDACTED&lang=en'],
    [`http://games.example:8081/launch?token=${token}#top`, 'http://games.example:8081/launch?token=REDACTED#top'],
    [`/api/sessions/${token}`, '/api/sessions/REDACTED'],
    [`/api/sessions/${token}/rounds/42?x=1`, '/api/sessions/REDACTED/rounds/42?x=1'],
    [`http://127.0.0.1:8081/api/sessions/${token}/spin`, 'http://127.0.0.1:8081/api/sessions/REDACTED/spin'],
  ])('%s → %s', (text, redacted) => expect(redactUrlSecrets(text)).toBe(redacted));

  it('leaves URLs without secrets as they are', () => {
    for (const text of [
      '/v1/bonus-call/171234567890123',
      'POST /api/sessions/:token/spin',
      '/launch',
      '/api/sessions',
      'lang=en&mytoken=1',
      'GET',
      '/assets/app.js?v=3',
    ]) {
      expect(redactUrlSecrets(text)).toBe(text);
    }
  });
});

describe('redactSpanUrlSecrets', () => {
  let tracing: ReturnType<typeof installTracing>;
  beforeAll(() => {
    tracing = installTracing();
  });
  afterAll(() => tracing.uninstall());

  it('rewrites the string attributes and the name of a span that hold a secret, and keeps the rest', () => {
    const span = tracing.tracer.startSpan(`GET /api/sessions/${token}`, {
      attributes: {
        'url.path': `/api/sessions/${token}/spin`,
        'url.query': `token=${token}`,
        'http.response.status_code': 200,
        'server.address': 'games.example',
      },
    });
    redactSpanUrlSecrets(span);
    span.end();
    expect(tracing.spanNamed('GET /api/sessions/REDACTED').attributes).toEqual({
      'url.path': '/api/sessions/REDACTED/spin',
      'url.query': 'token=REDACTED',
      'http.response.status_code': 200,
      'server.address': 'games.example',
    });
  });
});

describe('the HTTP instrumentation of initTelemetry', () => {
  it('exports no span that holds the session token, on the server side or the client side', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'fixtures', 'http-secrets-traced.ts'), token],
      {
        cwd: import.meta.dirname,
        timeout: 20_000,
      },
    );
    const spans = JSON.parse(stdout) as { name: string; kind: number; attributes: Record<string, unknown> }[];
    const SERVER = 1;
    const CLIENT = 2;
    expect(spans.filter((span) => span.kind === SERVER)).toHaveLength(3);
    expect(spans.filter((span) => span.kind === CLIENT)).toHaveLength(3);
    expect(stdout).not.toContain(token);
    const attribute = (kind: number, key: string) =>
      spans.filter((span) => span.kind === kind).map((span) => span.attributes[key]);
    expect(attribute(SERVER, 'url.path')).toEqual(
      expect.arrayContaining(['/launch', '/api/sessions/REDACTED', '/api/sessions/REDACTED/spin']),
    );
    expect(attribute(SERVER, 'url.query')).toContain('token=REDACTED&lang=en');
    expect(attribute(CLIENT, 'url.full')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/launch\?token=REDACTED&lang=en$/),
        expect.stringMatching(/\/api\/sessions\/REDACTED$/),
        expect.stringMatching(/\/api\/sessions\/REDACTED\/spin$/),
      ]),
    );
  });
});
