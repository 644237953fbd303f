/**
 * `npm run bench:gateway`: POST /v1/bonus-call/register through the whole gateway — auth, rate
 * limit, validation, the registration decided and appended on the guard and player streams
 * (ADR 0011), with the REAL bonus-ledger's relay and read model following in the same process — on
 * the embedded back ends (SQLite event store and bus, synchronous=FULL, one temp
 * file, as `npm start` runs them), next to a bare Express endpoint that does the same validation
 * (zod contract, amounts to minor units, expireAt in the zone) and answers at once. Both are
 * driven by autocannon with the same connections and duration; every request registers a new
 * bonus call (its own platformId and player). The ratio says what the platform costs on top of
 * validation: the durable, idempotent decision.
 */
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import express from 'express';
import {
  apiTokenDigest,
  localDateTimeToInstant,
  registerBonusCallRequest,
  validationDetails,
} from '@reelstream/contracts';
import { tryParseAmount } from '@reelstream/money';
import { BENCH_TOKEN, startBenchPlatform } from './support/platform.js';
import { benchRegistration } from './support/registration.js';

const CONNECTIONS = 32;
const DURATION_S = 10;
const WARMUP_S = 2;
/** The baseline: the same request validation, then 200 without any back end. */
async function bareExpress(): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(express.json({ limit: 32 * 1024 }));
  const digest = apiTokenDigest(BENCH_TOKEN);
  let issued = 0;
  app.post('/v1/bonus-call/register', (req, res) => {
    if (req.get('authorization') !== `Bearer ${BENCH_TOKEN}` || digest.length !== 64) {
      res.status(401).json({ success: false });
      return;
    }
    const parsed = registerBonusCallRequest.safeParse(req.body);
    if (!parsed.success) {
      res.status(400).json({
        success: false,
        message: 'The request is not valid.',
        data: null,
        error: { code: 'VALIDATION_FAILED', details: validationDetails(parsed.error) },
      });
      return;
    }
    const callAmount = tryParseAmount(parsed.data.callAmount, 'EUR');
    const expireAt = localDateTimeToInstant(parsed.data.expireAt, 'UTC');
    if (!callAmount.ok || !expireAt.ok || expireAt.instant.getTime() <= Date.now()) {
      res.status(422).json({ success: false });
      return;
    }
    issued += 1;
    res.status(200).json({ success: true, message: 'OK', data: { issueId: issued } });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Measured {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  ok: number;
  other: number;
  /** This process's CPU time (user + system) per request: the server's and autocannon's, which runs here too. */
  cpuMsPerRequest: number;
}

async function measure(url: string, durationS: number): Promise<Measured> {
  const cpuBefore = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: durationS,
    requests: [
      {
        method: 'POST',
        path: '/v1/bonus-call/register',
        headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
        setupRequest: (request) => ({ ...request, body: benchRegistration() }),
      },
    ],
  });
  const cpu = process.cpuUsage(cpuBefore);
  return {
    cpuMsPerRequest: (cpu.user + cpu.system) / 1_000 / Math.max(result.requests.total, 1),
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    other: result.non2xx + result.errors + result.timeouts,
  };
}

const {
  gateway,
  store: gatewayStore,
  stop,
} = await startBenchPlatform('gateway-bench', {
  perSecond: 1_000_000,
  burst: 1_000_000,
});
const bare = await bareExpress();

try {
  await measure(gateway.url, WARMUP_S);
  await measure(bare.url, WARMUP_S);
  const full = await measure(gateway.url, DURATION_S);
  const baseline = await measure(bare.url, DURATION_S);
  const events = (await gatewayStore.readAll({})).length;

  const line = (m: Measured) =>
    `${m.requestsPerSecond.toFixed(0).padStart(6)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   (${m.ok} ok, ${m.other} other)   CPU ${m.cpuMsPerRequest.toFixed(3)} ms/request`;
  console.log(
    `gateway bench: POST /v1/bonus-call/register, autocannon ${CONNECTIONS} connections × ${DURATION_S} s, node ${process.version}`,
  );
  console.log(`  gateway (+ ledger relay), SQLite (FULL)        ${line(full)}`);
  console.log(`  bare Express, same validation, no back end     ${line(baseline)}`);
  console.log(
    `  ratio gateway / bare                            req/s ${(full.requestsPerSecond / baseline.requestsPerSecond).toFixed(3)}   p50 ${(full.p50 / Math.max(baseline.p50, 1)).toFixed(1)}×   p99 ${(full.p99 / Math.max(baseline.p99, 1)).toFixed(1)}×`,
  );
  console.log(
    `  CPU per request is this process's (user + system): the server's and autocannon's, which runs in it for both rows`,
  );
  console.log(
    `  events in the store after the runs (warm-up included): ${events}, 2 per registered bonus call (BonusRequestAccepted + BonusCallRegistered)`,
  );
} finally {
  await bare.close();
  await stop();
}
