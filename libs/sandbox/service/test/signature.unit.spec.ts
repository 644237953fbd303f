/**
 * The sandbox's verifier against signatures computed outside this code base (openssl, see the
 * dispatcher's signature.unit.spec.ts), for both schemes and the 5-minute window.
 */
import { describe, expect, it } from '@jest/globals';
import { MAX_TIMESTAMP_SKEW_SECONDS, signatureProblem } from '../src/signature.js';

const rawBody = Buffer.from(
  '{"command":"bet","transactionId":"244377146876160","playerId":"player_42","roundId":"244377146876161","providerId":1,"gameCode":101,"currency":"EUR","amount":0.2,"isBonusBusy":false,"bonusId":0,"timestamp":1777600000}',
);
const CURRENT = 'known-value-secret-0123456789';
const PREVIOUS = 'previous-secret-0123456789';
const BODY_SIG = {
  current: '2262ff586ee64d7705dfe9bf05e65b6f36153101bb5a0a08ee7b644e55763641',
  previous: 'b886cbaf166715a9a5e30212f61feb9caefd15118203a3cede3bdf412b4ade78',
};
const STAMPED_SIG = {
  current: '1781bd429148701fcfa66c36a399443b1dd4fbd821004249a57947359812fc15',
  previous: '8403506b15457dca78c9e49d6205aa2edbcb318ab26e707eece52be19c8413d3',
};
const STAMP = 1_777_600_007;

describe('signatureProblem', () => {
  const body = { signingSecrets: [CURRENT, PREVIOUS], signatureScheme: 'body' } as const;
  const stamped = { signingSecrets: [CURRENT, PREVIOUS], signatureScheme: 'timestamp.body' } as const;

  it('"body" (D8): either secret of a rotation, over the body alone; the timestamp header plays no part', () => {
    expect(signatureProblem({ rawBody, signature: BODY_SIG.current, timestamp: undefined }, body, 0)).toBeUndefined();
    expect(signatureProblem({ rawBody, signature: BODY_SIG.previous, timestamp: 'garbage' }, body, 0)).toBeUndefined();
    expect(
      signatureProblem(
        { rawBody, signature: BODY_SIG.current, timestamp: undefined },
        { ...body, signingSecrets: [PREVIOUS] },
        0,
      ),
    ).toMatch(/not the HMAC-SHA256 of the body/);
    expect(
      signatureProblem({ rawBody, signature: STAMPED_SIG.current, timestamp: String(STAMP) }, body, STAMP),
    ).toMatch(/not the HMAC-SHA256 of the body/);
  });

  it('"timestamp.body": over `<timestamp>.<body>`, within 5 minutes either way of now', () => {
    const at = (timestamp: string | undefined, signature = STAMPED_SIG.current) => ({ rawBody, signature, timestamp });
    expect(MAX_TIMESTAMP_SKEW_SECONDS).toBe(300);
    expect(signatureProblem(at(String(STAMP)), stamped, STAMP)).toBeUndefined();
    expect(signatureProblem(at(String(STAMP), STAMPED_SIG.previous), stamped, STAMP + 300)).toBeUndefined();
    expect(signatureProblem(at(String(STAMP)), stamped, STAMP - 300)).toBeUndefined();
    expect(signatureProblem(at(String(STAMP)), stamped, STAMP + 301)).toBe(
      'X-Request-Timestamp is 301 s old (more than 300 s): refused as a possible replay',
    );
    expect(signatureProblem(at(String(STAMP)), stamped, STAMP - 301)).toBe(
      'X-Request-Timestamp is 301 s ahead of this wallet’s clock (more than 300 s)',
    );
    expect(signatureProblem(at(undefined), stamped, STAMP)).toMatch(/whole seconds/);
    expect(signatureProblem(at(`${STAMP}.5`), stamped, STAMP)).toMatch(/whole seconds/);
    // The body-only signature, or a timestamp other than the one signed, does not pass.
    expect(signatureProblem(at(String(STAMP), BODY_SIG.current), stamped, STAMP)).toMatch(
      /<X-Request-Timestamp>\.<body>/,
    );
    expect(signatureProblem(at(String(STAMP + 1)), stamped, STAMP)).toMatch(/<X-Request-Timestamp>\.<body>/);
  });

  it('a signature header that is not 64 lowercase hex digits is refused before any HMAC is compared', () => {
    for (const signature of [undefined, '', 'zz', BODY_SIG.current.toUpperCase(), `${BODY_SIG.current}00`]) {
      expect(signatureProblem({ rawBody, signature, timestamp: undefined }, body, 0)).toMatch(
        /not the HMAC-SHA256 of the body/,
      );
    }
  });
});
