/**
 * docs/operator-guide.md is written by hand: these checks keep it true to the code — the error
 * table to the catalogue, the endpoints and curl bodies to the contracts, the signature snippet
 * to D8.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { ApiOperations, ErrorCatalogue, isErrorCode, parseCallback, type ApiOperation } from '@reelstream/contracts';
import { errorCodesOf, type OperationName } from '../src/index.js';

const guide = readFileSync(fileURLToPath(new URL('../../../../docs/operator-guide.md', import.meta.url)), 'utf8');

describe('docs/operator-guide.md', () => {
  it('lists every error code an endpoint can answer, each with the status of the catalogue', () => {
    const rows = [...guide.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map(
      ([, code, status]) => [code as string, Number(status)] as const,
    );
    expect(rows.length).toBeGreaterThan(15);
    for (const [code, status] of rows) {
      expect(isErrorCode(code)).toBe(true);
      expect({ code, status }).toEqual({ code, status: isErrorCode(code) ? ErrorCatalogue[code].status : -1 });
    }
    const documented = new Set(rows.map(([code]) => code));
    for (const [name, operation] of Object.entries(ApiOperations) as [OperationName, ApiOperation][]) {
      for (const code of errorCodesOf(name, operation))
        expect({ name, code, documented: documented.has(code) }).toEqual({ name, code, documented: true });
    }
  });

  it('has a section with a curl example for every endpoint', () => {
    for (const operation of Object.values(ApiOperations) as ApiOperation[]) {
      const heading = new RegExp(
        `^### .*\`${operation.method.toUpperCase()} ${operation.path.replace(/[{}?]/g, '\\$&')}`,
        'm',
      );
      expect({ path: operation.path, documented: heading.test(guide) }).toEqual({
        path: operation.path,
        documented: true,
      });
      const example = operation.path
        .replace('{issueId}', '244376873632000')
        .replace('{roundId}', '244376873632100')
        .replace('{transactionId}', '244376873632102')
        .replace('{campaignId}', 'summer-26')
        .replace('{eventId}', 'bw-0b7c5a52-61a8-4c1e-9d55-3f0e8e0f7a11');
      expect({ path: operation.path, curl: guide.includes(`"$BASE${example}`) }).toEqual({
        path: operation.path,
        curl: true,
      });
    }
  });

  it('sends only bodies the contracts accept in its curl examples', () => {
    const examples = [...guide.matchAll(/-X POST "\$BASE(\/v1\/[a-z/-]+)"[\s\S]*?-d '([^']+)'/g)];
    expect(examples.length).toBe(4);
    for (const [, path, body] of examples) {
      const operation = (Object.values(ApiOperations) as ApiOperation[]).find((candidate) => candidate.path === path);
      expect(operation?.body?.safeParse(JSON.parse((body as string).replace(/\s*\n\s*/g, ''))).success).toBe(true);
    }
  });

  it('shows a signature check that accepts the platform signature with either rotating secret and refuses others', () => {
    const snippet = /function signatureIsValid[\s\S]*?\n}\n/.exec(guide)?.[0];
    expect(snippet).toBeDefined();
    const build = new Function(
      'createHmac',
      'timingSafeEqual',
      'secrets',
      `${snippet as string}\nreturn signatureIsValid;`,
    );
    const signatureIsValid = build(createHmac, timingSafeEqual, [
      'current-secret-0123456789',
      'previous-secret-0123456789',
    ]) as (body: Buffer, header: string | undefined) => boolean;
    const body = Buffer.from(
      '{"command":"win","transactionId":"1","playerId":"p","roundId":"2","providerId":1,"gameCode":101,"amount":0,"isRoundFinished":true,"bonusId":"7","timestamp":1}',
    );
    const sign = (secret: string) => createHmac('sha256', secret).update(body).digest('hex');
    expect(signatureIsValid(body, sign('current-secret-0123456789'))).toBe(true);
    expect(signatureIsValid(body, sign('previous-secret-0123456789'))).toBe(true);
    expect(signatureIsValid(body, sign('someone-else-0123456789'))).toBe(false);
    expect(signatureIsValid(body, sign('current-secret-0123456789').toUpperCase())).toBe(false);
    expect(signatureIsValid(body, undefined)).toBe(false);
    expect(signatureIsValid(Buffer.concat([body, Buffer.from(' ')]), sign('current-secret-0123456789'))).toBe(false);
  });

  it('shows a timestamp.body check that accepts the platform signature within 5 minutes and refuses stale or body-only ones', () => {
    const snippet = /const MAX_SKEW_SECONDS[\s\S]*?function timestampedSignatureIsValid[\s\S]*?\n}\n/.exec(guide)?.[0];
    expect(snippet).toBeDefined();
    const build = new Function(
      'createHmac',
      'timingSafeEqual',
      'secrets',
      `${snippet as string}\nreturn timestampedSignatureIsValid;`,
    );
    const isValid = build(createHmac, timingSafeEqual, ['current-secret-0123456789', 'previous-secret-0123456789']) as (
      body: Buffer,
      timestamp: string | undefined,
      signature: string | undefined,
      now: number,
    ) => boolean;
    const body = Buffer.from(
      '{"command":"win","transactionId":"1","playerId":"p","roundId":"2","providerId":1,"gameCode":101,"amount":0,"isRoundFinished":true,"bonusId":7,"timestamp":1}',
    );
    const sign = (signed: Buffer | string, secret = 'current-secret-0123456789') =>
      createHmac('sha256', secret).update(signed).digest('hex');
    const stamp = 1_777_600_007;
    const stamped = Buffer.concat([Buffer.from(`${stamp}.`), body]);
    expect(isValid(body, String(stamp), sign(stamped), stamp + 300)).toBe(true);
    expect(isValid(body, String(stamp), sign(stamped, 'previous-secret-0123456789'), stamp)).toBe(true);
    expect(isValid(body, String(stamp), sign(stamped), stamp + 301)).toBe(false);
    expect(isValid(body, String(stamp), sign(body), stamp)).toBe(false);
    expect(isValid(body, String(stamp + 1), sign(stamped), stamp)).toBe(false);
    expect(isValid(body, undefined, sign(stamped), stamp)).toBe(false);
  });

  it('documents the callback wire format the code sends: bonusId a number, X-Request-Timestamp, the betwin cancel', () => {
    const section = guide.slice(guide.indexOf('## 7. Wallet callbacks'), guide.indexOf('## 8.'));
    const bodies = [...section.matchAll(/^(\{"command":.*\})$/gm)].map(
      ([, line]) => JSON.parse(line as string) as Record<string, unknown>,
    );
    expect(bodies.map((body) => body['command'])).toEqual(['bet', 'win', 'betwin', 'cancel', 'cancel']);
    for (const body of bodies)
      expect({ command: body['command'], parsed: parseCallback(body, 'string').command }).toEqual({
        command: body['command'],
        parsed: body['command'],
      });
    for (const body of bodies) expect(typeof body['bonusId']).toBe('number');
    const betwinCancel = bodies[4] as Record<string, unknown>;
    expect(betwinCancel['refTransactionId']).toBe(bodies[2]?.['transactionId']);
    expect({ betAmount: betwinCancel['betAmount'], winAmount: betwinCancel['winAmount'] }).toEqual({
      betAmount: bodies[2]?.['betAmount'],
      winAmount: bodies[2]?.['winAmount'],
    });
    expect(section).toContain('`X-Request-Timestamp`');
    expect(section.replace(/\s+/g, ' ')).toContain('**reverse the whole referenced transaction**');
  });
});
