/**
 * Property-based fuzzing of the four writes (register, cancel, launch, campaigns) (and, below them, the reconciliation API's paths and
 * queries) with the real ledger and store: at least 10,000
 * generated bodies each (see support/fuzz-bodies.ts). However wrong a body is, the answer is
 * never a 5xx, always the envelope, and a rejected request appends no event: every event
 * appended during the run carries the request id (its correlationId) of a request that
 * succeeded.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ERROR_CODES, errorEnvelope, httpStatusOf } from '@reelstream/contracts';
import fc from 'fast-check';
import { campaignBodies, cancelBodies, launchBodies, registerBodies, type FuzzBody } from './support/fuzz-bodies.js';
import {
  campaignPaths,
  deadLetterQueries,
  redrivePaths,
  roundPaths,
  transactionQueries,
  webhookRedrivePaths,
} from './support/fuzz-queries.js';
import { RawClient } from './support/raw-client.js';
import { TOKENS } from './support/operators.js';
import { startStack, type Stack } from './support/stack.js';
import { OPERATOR_IDS } from './support/operators.js';
import { writePaidRound, writeWebhookLetter } from './support/wallet-history.js';

const RUNS = 10_000;
const CONCURRENCY = 32;
const SEED = Number(process.env['FUZZ_SEED'] ?? 20_260_501);
/** Answers that only a body past validation gets: the domain's 404, 409 and 422 codes. */
const PAST_VALIDATION = new Set<string>(
  ERROR_CODES.filter((code) => [404, 409, 422].includes(httpStatusOf(code)) && code !== 'ROUTE_NOT_FOUND'),
);
/** Per endpoint, of RUNS bodies (the default seed gets 1,300–1,600): the paths after validation really ran. */
const MIN_PAST_VALIDATION = RUNS / 20;

let stack: Stack;
let client: RawClient;

beforeAll(async () => {
  stack = await startStack();
  client = new RawClient(stack.gateway.url, CONCURRENCY);
  // Bonus calls the generated cancels can find by platformId.
  const a = stack.http.withToken(TOKENS.a);
  for (let n = 0; n <= 60; n += 3) {
    const response = await a.post('/v1/bonus-call/register', {
      platformId: `fz-pre-${n}`,
      providerId: 1,
      gameId: 101,
      playerId: `fz_pre_player_${n}`,
      bonusType: 1,
      callAmount: 5,
      expireAt: '2026-06-30 23:59:59',
      metaData: { spinAmount: 3, baseBetAmount: 0.2 },
    });
    expect(response.status).toBe(200);
  }
});
afterAll(async () => {
  client.close();
  await stack.close();
});

interface Outcome {
  requestId: string;
  status: number;
  body: FuzzBody;
  text: string;
}

async function send(path: string, prefix: string, generated: readonly FuzzBody[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const worker = async () => {
    while (next < generated.length) {
      const index = next++;
      const body = generated[index] as FuzzBody;
      const requestId = `${prefix}-${index}`;
      const headers = {
        authorization: `Bearer ${TOKENS.a}`,
        'content-type': 'application/json',
        'x-request-id': requestId,
      };
      const raw = body.kind === 'raw' ? body.text : JSON.stringify(body.value);
      const response = await client.post(path, raw, headers);
      outcomes.push({ requestId, status: response.status, body, text: response.text });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return outcomes;
}

/** 200, or 202 for a campaign: the request was taken. */
const accepted = (outcome: { status: number }) => outcome.status === 200 || outcome.status === 202;

/** Waits until every campaign a 202 answered is completed (none of its work is still to be appended). */
async function campaignsSettled(outcomes: readonly Outcome[]): Promise<void> {
  const campaignIds = new Set(
    outcomes
      .filter((outcome) => outcome.status === 202)
      .map((outcome) => JSON.parse(outcome.text).data.campaignId as string),
  );
  for (const campaignId of campaignIds) await campaignsSettledById(campaignId);
}

async function campaignsSettledById(campaignId: string, token: string = TOKENS.a): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const read = await stack.http.withToken(token).get(`/v1/bonus-call/campaigns/${campaignId}`);
    if (read.body?.data?.state === 'completed') return;
    if (Date.now() > deadline) throw new Error(`campaign ${campaignId} did not complete: ${read.text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function lastPosition(): Promise<string | undefined> {
  const [last] = await stack.store.readAll({ direction: 'backwards', maxCount: 1 });
  return last?.position;
}

describe.each([
  ['/v1/bonus-call/register', 'fz-register', registerBodies],
  ['/v1/bonus-call/cancel', 'fz-cancel', cancelBodies],
  ['/v1/game/launch', 'fz-launch', launchBodies],
  ['/v1/bonus-call/campaigns', 'fz-campaign', campaignBodies],
] as const)('POST %s', (path, prefix, arbitrary) => {
  it(`answers ${RUNS} generated bodies without a 5xx, in the envelope, and appends no event for a rejected one (seed ${SEED})`, async () => {
    const generated = fc.sample(arbitrary, { numRuns: RUNS, seed: SEED });
    const from = await lastPosition();
    const outcomes = await send(path, prefix, generated);
    expect(outcomes).toHaveLength(RUNS);

    const serverErrors = outcomes.filter((outcome) => outcome.status >= 500);
    expect(
      serverErrors.slice(0, 3).map(({ status, body, text }) => ({
        status,
        body: JSON.stringify(body).slice(0, 300),
        text: text.slice(0, 300),
      })),
    ).toEqual([]);
    for (const outcome of outcomes) {
      if (accepted(outcome)) continue;
      const envelope = errorEnvelope.safeParse(JSON.parse(outcome.text));
      if (!envelope.success)
        throw new Error(
          `not the error envelope for ${JSON.stringify(outcome.body).slice(0, 200)}: ${outcome.text.slice(0, 200)}`,
        );
    }

    const succeeded = new Set(outcomes.filter(accepted).map((outcome) => outcome.requestId));
    const rejected = new Set(outcomes.filter((outcome) => !accepted(outcome)).map((outcome) => outcome.requestId));
    // A campaign's registrations run after its 202 (they carry its request id): every one has ended before the log is read.
    await campaignsSettled(outcomes);
    const appended = await stack.store.readAll(from === undefined ? {} : { fromPosition: from });
    const byRejected = appended.filter((event) => rejected.has(String(event.metadata.correlationId)));
    const unexplained = appended.filter((event) => !succeeded.has(String(event.metadata.correlationId)));
    expect(byRejected.map((event) => `${event.type} ${String(event.metadata.correlationId)}`)).toEqual([]);
    expect(unexplained.map((event) => `${event.type} ${String(event.metadata.correlationId)}`)).toEqual([]);

    // The generator must reach past validation too, or the property says little: count only the
    // answers that prove the body was valid (a success, or a rule of the domain refusing it).
    const answers = new Map<string, number>();
    for (const outcome of outcomes) {
      const answer = accepted(outcome)
        ? '200'
        : String((JSON.parse(outcome.text) as { error: { code: string } }).error.code);
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
    const pastValidation = [...answers]
      .filter(([answer]) => answer === '200' || PAST_VALIDATION.has(answer))
      .reduce((sum, [, n]) => sum + n, 0);
    process.stdout.write(
      `${path}: ${JSON.stringify(Object.fromEntries([...answers].sort()))}, ${pastValidation} past validation, ${appended.length} events by accepted requests\n`,
    );
    expect(rejected.size).toBeGreaterThan(RUNS / 2);
    expect(pastValidation).toBeGreaterThanOrEqual(MIN_PAST_VALIDATION);
    expect(succeeded.size).toBeGreaterThan(0);
  }, 180_000); // about 15 s each on an idle machine; several times that with the cores busy
});

/** Per reconciliation endpoint: reads are cheap, so fewer runs prove the same property. */
const READ_RUNS = 2_000;

describe('the reads (rounds, transactions, wallet and webhook dead letters, their re-drives, campaigns)', () => {
  const paths: Record<string, string[]> = {};

  beforeAll(async () => {
    const ofA = await writePaidRound(stack.store, OPERATOR_IDS.a, 'fz_recon_a');
    const ofB = await writePaidRound(stack.store, OPERATOR_IDS.b, 'fz_recon_b');
    const a = stack.http.withToken(TOKENS.a);
    const page = await a.get('/v1/transactions?limit=1');
    const cursors = [String(page.body.data.nextCursor)];
    // A dead letter's cursor, and the one of the last page (past every dead letter of A).
    const letters = await a.get('/v1/wallet/dead-letters?limit=1');
    const letterCursors = [String(letters.body.data.nextCursor), ...cursors];
    paths['rounds'] = fc.sample(roundPaths([ofA.roundId, ofB.roundId]), { numRuns: READ_RUNS, seed: SEED });
    paths['transactions'] = fc.sample(transactionQueries(['fz_recon_a', 'fz_recon_b'], cursors), {
      numRuns: READ_RUNS,
      seed: SEED,
    });
    paths['dead-letters'] = fc.sample(deadLetterQueries(letterCursors), { numRuns: READ_RUNS, seed: SEED });
    // Webhook letters: B's (a 404 for A), and two of A's: one standing (listed), one re-driven here
    // already, whose generated re-drives answer already_redriven and append nothing.
    await writeWebhookLetter(stack.store, OPERATOR_IDS.a, 'fz_recon_a');
    const webhookOfA = await writeWebhookLetter(stack.store, OPERATOR_IDS.a, 'fz_recon_a');
    const webhookOfB = await writeWebhookLetter(stack.store, OPERATOR_IDS.b, 'fz_recon_b');
    expect((await a.call('POST', `/v1/webhooks/dead-letters/${webhookOfA}/redrive`)).status).toBe(200);
    const webhookPage = await a.get('/v1/webhooks/dead-letters?limit=1');
    paths['webhook-dead-letters'] = fc.sample(
      deadLetterQueries([String(webhookPage.body.data.nextCursor), ...cursors], '/v1/webhooks/dead-letters'),
      { numRuns: READ_RUNS, seed: SEED },
    );
    paths['webhook-redrive'] = fc.sample(webhookRedrivePaths([webhookOfA, webhookOfB]), {
      numRuns: READ_RUNS,
      seed: SEED,
    });
    // Never A's own dead-lettered win: no dispatcher runs here, so its re-drive would wait and be a 503.
    expect(
      (
        await a.post('/v1/bonus-call/campaigns', {
          campaignId: 'fz-known',
          players: ['fz_recon_a'],
          providerId: 1,
          gameId: 101,
          bonusType: 1,
          callAmount: 5,
          expireAt: '2026-06-30 23:59:59',
          metaData: { spinAmount: 3, baseBetAmount: 0.2 },
        })
      ).status,
    ).toBe(202);
    await campaignsSettledById('fz-known');
    // B's campaign: A reads it as absent.
    expect(
      (
        await stack.http.withToken(TOKENS.b).post('/v1/bonus-call/campaigns', {
          campaignId: 'fz-of-b',
          players: ['fz_recon_b'],
          providerId: 2,
          gameId: 201,
          bonusType: 2,
          callAmount: 1000,
          expireAt: '2026-06-30 23:59:59',
        })
      ).status,
    ).toBe(202);
    await campaignsSettledById('fz-of-b', TOKENS.b);
    paths['campaigns'] = fc.sample(campaignPaths(['fz-known', 'fz-of-b', 'fz-c-1']), {
      numRuns: READ_RUNS,
      seed: SEED,
    });
    paths['redrive'] = fc.sample(redrivePaths([ofA.betTransactionId, ofB.winTransactionId, ofB.betTransactionId]), {
      numRuns: READ_RUNS,
      seed: SEED,
    });
  });

  it.each([
    ['rounds', 'GET'],
    ['transactions', 'GET'],
    ['dead-letters', 'GET'],
    ['redrive', 'POST'],
    ['campaigns', 'GET'],
    ['webhook-dead-letters', 'GET'],
    ['webhook-redrive', 'POST'],
  ] as const)(
    `answers ${READ_RUNS} generated %s requests without a 5xx, in the envelope, appending nothing`,
    async (name, method) => {
      const generated = paths[name] ?? [];
      const from = await lastPosition();
      const outcomes: { path: string; status: number; text: string }[] = [];
      let next = 0;
      const worker = async () => {
        while (next < generated.length) {
          const path = generated[next++] as string;
          const response = await client.request(method, path, '', { authorization: `Bearer ${TOKENS.a}` });
          outcomes.push({ path, ...response });
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, worker));
      expect(outcomes).toHaveLength(READ_RUNS);
      expect(outcomes.filter((outcome) => outcome.status >= 500).slice(0, 3)).toEqual([]);
      const answers = new Map<string, number>();
      for (const outcome of outcomes) {
        let answer = String(outcome.status);
        if (outcome.status !== 200) {
          const envelope = errorEnvelope.safeParse(JSON.parse(outcome.text));
          if (!envelope.success)
            throw new Error(`not the error envelope for ${outcome.path}: ${outcome.text.slice(0, 200)}`);
          answer = envelope.data.error.code;
        }
        answers.set(answer, (answers.get(answer) ?? 0) + 1);
      }
      process.stdout.write(`${name}: ${JSON.stringify(Object.fromEntries([...answers].sort()))}\n`);
      expect(await lastPosition()).toBe(from);
      // Past validation too: found (200), or refused by what the log holds (404, 409).
      const pastValidation = [...answers].filter(
        ([answer]) => answer !== 'VALIDATION_FAILED' && answer !== 'ROUTE_NOT_FOUND',
      );
      expect(pastValidation.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(READ_RUNS / 10);
    },
    120_000,
  );
});
