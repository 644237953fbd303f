/**
 * `npm run bench:reads`: what one page of the reconciliation lists costs as the event log grows.
 *
 * For each log size (10k events, then READS_BENCH_EVENTS, default 300k), a fresh embedded event store
 * (SQLite, synchronous=NORMAL: this measures reads, not fsyncs) is filled with the wallet history of
 * 50 operators, as the dispatcher writes it: bets (3 events; one in ten still pending, 2 events),
 * every 25th transaction a win dead-lettered after three attempts (8 events), and now and then a
 * dead-lettered bonus webhook. The real gateway then starts on it, its reconciliation read model
 * projects the log (the time it takes is printed), and each page is asked over HTTP by operator
 * `op00` (2% of the traffic) many times: median and p99 per page kind, and the ratio of the large
 * log's to the small log's, measured in the same run.
 *
 * For reference, what a page cost before the read model: the lists read the log until `limit`
 * rows matched, so a page with few matches read the whole log. The "full scan" line is that read
 * alone (the wallet streams' events, 500 at a time, no fold), measured on the same logs.
 *
 * Knobs: READS_BENCH_EVENTS (the large log, default 300k; 10M took 26 minutes on 2 shared cores),
 * READS_BENCH_REPEATS (requests per page kind, default 200). Each phase writes a line on stderr as
 * it ends (the fill every million events): its time, the process's RSS, heap used (garbage not yet
 * collected included) and peak RSS. The files go to the system's temporary directory (TMPDIR), about
 * 0.9 GB per million events (log and read model), removed at the end of each size.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorDirectory } from '@reelstream/platform-config';
import {
  eventToAppend,
  parseOperatorsConfig,
  streamPrefix,
  StreamCategories,
  walletTxStream,
  webhookLetterStream,
  type DomainEvent,
  type OperatorConfigInput,
} from '@reelstream/contracts';
import { SqliteEventStore } from '@reelstream/platform-eventstore-sqlite';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { SqliteMessageBus } from '@reelstream/platform-messaging-sqlite';
import { systemClock, type Position } from '@reelstream/platform-ports';
import { startGateway } from '@reelstream/gateway-service';
import { createLogger } from '@reelstream/platform-telemetry';
import { paidRoundWin } from '../libs/testing/src/game-fixtures.js';
import { sampleBetRequest } from '../libs/testing/src/wallet-fixtures.js';
import { SqliteReconciliationReadModel } from '@reelstream/wallet-adapters';

const OPERATORS = 50;
const PAGER = 'op00';
const SMALL = 10_000;
const LARGE = Number(process.env['READS_BENCH_EVENTS'] ?? 300_000);
const REPEATS = Number(process.env['READS_BENCH_REPEATS'] ?? 200);
const mb = (bytes: number) => `${Math.round(bytes / 1_048_576).toLocaleString('en')} MB`;
/** A line on stderr as each phase ends: how long it took, and the process's memory then and at its peak. */
const progress = (what: string, seconds: number) =>
  process.stderr.write(
    `  ${what} in ${seconds.toFixed(1)} s (rss ${mb(process.memoryUsage.rss())}, heap ${mb(process.memoryUsage().heapUsed)}, peak rss ${mb(process.resourceUsage().maxRSS * 1_024)})\n`,
  );
const tokenOf = (operator: string) => `bench-reads-token-${operator}-0123456789`;

const operators: OperatorConfigInput[] = Array.from({ length: OPERATORS }, (_, i) => {
  const id = `op${String(i).padStart(2, '0')}`;
  return {
    id,
    name: `Operator ${id}`,
    apiToken: tokenOf(id),
    callbackUrl: `http://127.0.0.1:9/wallet/${id}`,
    signingSecret: `bench-signing-secret-${id}-0123`,
    currency: 'EUR',
  };
});

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

/** The events of the n-th transaction: its stream and what the dispatcher wrote into it. */
function transaction(n: number): { streamId: string; operatorId: string; events: DomainEvent[] } {
  const operatorId = `op${String(n % OPERATORS).padStart(2, '0')}`;
  const transactionId = 1_000_000_000_000 + n;
  const playerId = `player_${Math.floor(n / OPERATORS) % 500}`;
  const at = new Date(Date.UTC(2026, 4, 1) + n * 1_000).toISOString();
  const streamId = walletTxStream(transactionId);
  // Each operator gets every kind: the kind follows the operator's own count.
  const k = Math.floor(n / OPERATORS);
  if (k % 25 === 24) {
    const win = paidRoundWin(
      { stream: `round-${transactionId}`, revision: 1, eventId: randomUUID() },
      { transactionId, operatorId, playerId, roundId: transactionId, requestedAt: at },
    );
    const tries = [1, 2, 3].flatMap((attempt): DomainEvent[] => [
      { type: 'WalletAttempted', data: { attempt, command: 'win', at } },
      { type: 'WalletFailed', data: { error: 'timeout', attempt, final: attempt === 3, command: 'win', at } },
    ]);
    return {
      streamId,
      operatorId,
      events: [
        { type: 'WalletRequested', data: { transactionId, operatorId, command: 'win', request: win, requestedAt: at } },
        ...tries,
        { type: 'WinDeadLettered', data: { attempts: 3, lastError: 'timeout', at } },
      ],
    };
  }
  const bet = sampleBetRequest({ transactionId, operatorId, playerId, roundId: transactionId, requestedAt: at });
  const events: DomainEvent[] = [
    { type: 'WalletRequested', data: { transactionId, operatorId, command: 'bet', request: bet, requestedAt: at } },
    { type: 'WalletAttempted', data: { attempt: 1, command: 'bet', at } },
  ];
  if (k % 10 !== 3)
    events.push({ type: 'WalletSucceeded', data: { statusCode: 'OK', balanceMinor: 9_900, command: 'bet', at } });
  return { streamId, operatorId, events };
}

function webhookLetter(n: number): { streamId: string; operatorId: string; events: DomainEvent[] } {
  const operatorId = `op${String(n % OPERATORS).padStart(2, '0')}`;
  const eventId = `bw-${randomUUID()}`;
  const at = new Date(Date.UTC(2026, 4, 1) + n * 1_000).toISOString();
  const webhook = {
    eventId,
    type: 'bonus.registered' as const,
    bonusId: 2_000_000_000_000 + n,
    playerId: `player_${n % 500}`,
    sequence: 0,
    occurredAt: at,
    status: 'active' as const,
    currency: 'EUR',
    spinsUsed: 0,
    totalWin: 0,
  };
  return {
    streamId: webhookLetterStream(operatorId, eventId),
    operatorId,
    events: [
      {
        type: 'WebhookDeadLettered',
        data: { operatorId, webhook, key: `${operatorId}:${webhook.bonusId}`, attempts: 10, lastError: 'HTTP 503', at },
      },
    ],
  };
}

/** Appends about `target` events, 2,000 streams at a time (the store group-commits appends of one turn). */
async function writeLog(store: SqliteEventStore, target: number): Promise<number> {
  const start = performance.now();
  let written = 0;
  let n = 0;
  while (written < target) {
    const before = written;
    const appends: Promise<unknown>[] = [];
    for (let i = 0; i < 2_000 && written < target; i++, n++) {
      const next = Math.floor(n / OPERATORS) % 40 === 39 ? webhookLetter(n) : transaction(n);
      const context = {
        correlationId: randomUUID(),
        causationId: randomUUID(),
        operatorId: next.operatorId,
        occurredAt: '2026-05-01T00:00:00.000Z',
      };
      written += next.events.length;
      appends.push(
        store.append(
          next.streamId,
          next.events.map((event) => eventToAppend(event, context)),
          { expectedRevision: 'no_stream' },
        ),
      );
    }
    await Promise.all(appends);
    if (Math.floor(written / 1_000_000) > Math.floor(before / 1_000_000) && written < target)
      progress(`  ${written.toLocaleString('en')} events written`, (performance.now() - start) / 1_000);
  }
  return written;
}

/** The reference: every wallet event read off the log, 500 at a time, as the scanning lists read it. */
async function fullScanMs(store: SqliteEventStore): Promise<number> {
  const start = performance.now();
  let from: Position | undefined;
  for (;;) {
    const page = await store.readAll({
      maxCount: 500,
      filter: { streamPrefixes: [streamPrefix(StreamCategories.walletTx)] },
      ...(from === undefined ? {} : { fromPosition: from }),
    });
    for (const event of page) JSON.stringify(event.data);
    const last = page.at(-1);
    if (!last || page.length < 500) break;
    from = last.position;
  }
  return performance.now() - start;
}

interface PageFigures {
  median: number;
  p99: number;
  items: number;
}

type Sizes = Record<string, PageFigures>;

async function measure(
  size: number,
): Promise<{ events: number; writeS: number; projectS: number; scanMs: number; pages: Sizes }> {
  const dir = mkdtempSync(join(tmpdir(), 'reads-bench-'));
  const dbPath = join(dir, 'reelstream.db');
  const store = SqliteEventStore.open(dbPath, { synchronous: 'NORMAL' });
  const bus = await SqliteMessageBus.open(dbPath, { instanceId: 'reads-bench', synchronous: 'NORMAL' });
  try {
    let start = performance.now();
    const events = await writeLog(store, size);
    const writeS = (performance.now() - start) / 1_000;
    progress(`log of ${events.toLocaleString('en')} events written`, writeS);
    start = performance.now();
    const scanMs = Math.min(await fullScanMs(store), await fullScanMs(store));
    progress('full scans (reference) done', (performance.now() - start) / 1_000);

    start = performance.now();
    const gateway = await startGateway(
      {
        bus,
        store,
        operators: new OperatorDirectory(parseOperatorsConfig(operators)),
        catalog: loadCatalogFile(),
        clock: systemClock,
        ids: new TimeOrderedIdGenerator(1),
        // Silent: the lists answer 503 while the projection catches up (polled below), each one a failed request
        // in the log; a page that fails afterwards stops the bench.
        logger: createLogger({ service: 'reads-bench', level: 'silent' }),
        reconciliationReadModels: SqliteReconciliationReadModel,
      },
      {
        port: 0,
        host: '127.0.0.1',
        launchBaseUrl: 'http://localhost:8081',
        sessionTtlMs: 3_600_000,
        ledgerTimeoutMs: 5_000,
        rateLimit: { perSecond: 1_000_000, burst: 1_000_000 },
        bodyLimitBytes: 32 * 1024,
        readModelFile: join(dir, 'gateway-read-bench.db'),
      },
    );
    const get = async (path: string) => {
      const response = await fetch(`${gateway.url}${path}`, { headers: { authorization: `Bearer ${tokenOf(PAGER)}` } });
      return {
        status: response.status,
        body: (await response.json()) as { data: { items: unknown[]; nextCursor: string | null } },
      };
    };
    // The projection catches up with the log; the lists answer 503 until they hold it all.
    while ((await get('/v1/transactions?limit=1')).status !== 200) await new Promise((r) => setTimeout(r, 250));
    const projectS = (performance.now() - start) / 1_000;
    progress('read model projected by the gateway', projectS);
    start = performance.now();

    const second = (await get('/v1/transactions?limit=20')).body.data.nextCursor;
    // Pages that list as many items at both sizes: what grows is the log, not the page.
    const paths: Record<string, string> = {
      'transactions, first page (limit 50)': '/v1/transactions?limit=50',
      'transactions, next page (cursor, limit 20)': `/v1/transactions?limit=20&cursor=${second}`,
      'transactions of one player (limit 1)': '/v1/transactions?playerId=player_7&limit=1',
      'transactions by status (pending, limit 5)': '/v1/transactions?status=pending&limit=5',
      'transactions in a time window (limit 10)':
        '/v1/transactions?from=2026-05-01T00:00:00.000Z&to=2026-05-01T00:30:00.000Z&limit=10',
      'dead-lettered wins (limit 2)': '/v1/wallet/dead-letters?limit=2',
      'dead-lettered webhooks (limit 1)': '/v1/webhooks/dead-letters?limit=1',
    };
    const pages: Sizes = {};
    for (const [name, path] of Object.entries(paths)) {
      const times: number[] = [];
      let items = 0;
      for (let i = 0; i < REPEATS; i++) {
        const t = performance.now();
        const answer = await get(path);
        times.push(performance.now() - t);
        if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
        items = answer.body.data.items.length;
      }
      times.sort((x, y) => x - y);
      pages[name] = { median: percentile(times, 50), p99: percentile(times, 99), items };
    }
    progress('pages asked', (performance.now() - start) / 1_000);
    await gateway.stop(1_000);
    return { events, writeS, projectS, scanMs, pages };
  } finally {
    await bus.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (ms: number) => `${ms.toFixed(2).padStart(8)} ms`;

const small = await measure(SMALL);
const large = await measure(LARGE);
process.stdout.write(
  `reconciliation list pages over HTTP, operator ${PAGER} of ${OPERATORS}, ${REPEATS} requests each\n` +
    `log: small ${small.events.toLocaleString('en')} events (written in ${small.writeS.toFixed(1)} s, projected by the gateway in ${small.projectS.toFixed(1)} s)\n` +
    `     large ${large.events.toLocaleString('en')} events (written in ${large.writeS.toFixed(1)} s, projected by the gateway in ${large.projectS.toFixed(1)} s, ${Math.round(large.events / large.projectS).toLocaleString('en')} events/s)\n\n`,
);
process.stdout.write(
  `${'page'.padEnd(46)}${'small median'.padStart(14)}${'large median'.padStart(14)}${'ratio'.padStart(8)}${'small p99'.padStart(13)}${'large p99'.padStart(13)}${'ratio'.padStart(8)}  items\n`,
);
for (const name of Object.keys(small.pages)) {
  const s = small.pages[name] as PageFigures;
  const l = large.pages[name] as PageFigures;
  process.stdout.write(
    `${name.padEnd(46)}${fmt(s.median).padStart(14)}${fmt(l.median).padStart(14)}${(l.median / s.median).toFixed(2).padStart(7)}x` +
      `${fmt(s.p99).padStart(13)}${fmt(l.p99).padStart(13)}${(l.p99 / s.p99).toFixed(2).padStart(7)}x  ${s.items}/${l.items}\n`,
  );
}
process.stdout.write(
  `\nreference, before the read model: a page with few matches read the whole log (this is that read alone, no fold)\n` +
    `${'full scan of the wallet streams'.padEnd(46)}${fmt(small.scanMs).padStart(14)}${fmt(large.scanMs).padStart(14)}${(large.scanMs / small.scanMs).toFixed(2).padStart(7)}x\n`,
);
