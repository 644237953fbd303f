/**
 * What an SRE sees of one free spin: the five processes (sandbox, bonus-ledger, wallet-dispatcher,
 * game-server, gateway, built entries on one SQLite file) run with OTEL_METRICS_EXPORTER=prometheus
 * on their own ports and export traces as OTLP/HTTP JSON to a receiver in this test. After
 * register → launch → one free spin, every process's /metrics holds the metric families it owns
 * (docs/observability.md), and one trace covers the spin from the player's request to the operator's
 * wallet callback, across the processes.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eventually } from '@reelstream/testing';
import { buildApps } from '../../../scripts/build-apps.js';
import { AppProcess, REPOSITORY_ROOT } from './support/app-process.js';
import { call, OperatorClient, PlayerClient, SandboxAdmin, type OperatorAccount } from './support/clients.js';
import { OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver.js';
import { freePort, parseScrape, type Scrape } from './support/prometheus-scrape.js';

jest.setTimeout(90_000);

const OPERATOR: OperatorAccount = {
  id: 'otel',
  token: 'otel-api-token-0123456789abcdef',
  currency: 'EUR',
  timeZone: 'UTC',
};
const APPS = ['operator-sandbox', 'bonus-ledger', 'wallet-dispatcher', 'game-server', 'gateway'] as const;
type App = (typeof APPS)[number];

/** OTLP's span kinds. */
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

function operatorsJson(callbackUrl: string): string {
  return JSON.stringify([
    {
      id: OPERATOR.id,
      name: 'Telemetry Casino',
      apiToken: OPERATOR.token,
      callbackUrl,
      signingSecret: 'otel-signing-secret-0123456789',
      currency: OPERATOR.currency,
      timeZone: OPERATOR.timeZone,
    },
  ]);
}

describe('metrics and traces of the platform as five processes', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'reelstream-telemetry-'));
  let buildDir = '';
  let receiver: OtlpReceiver;
  const processes = new Map<App, AppProcess>();
  const metricsPorts = new Map<App, number>();
  let gatewayUrl = '';
  let gameUrl = '';
  let sandboxUrl = '';
  let spinTraceId = '';
  let issueId = 0;

  const scrape = async (app: App): Promise<Scrape> => {
    const response = await fetch(`http://127.0.0.1:${metricsPorts.get(app)}/metrics`);
    expect(response.status).toBe(200);
    return parseScrape(await response.text());
  };

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    mkdirSync(join(REPOSITORY_ROOT, 'tmp'), { recursive: true });
    buildDir = mkdtempSync(join(REPOSITORY_ROOT, 'tmp', 'telemetry-build-'));
    const built = await buildApps([...APPS], { outDir: buildDir });
    const entry = (app: App) => built.find((candidate) => candidate.app === app)?.entry ?? '';
    for (const app of APPS) metricsPorts.set(app, await freePort(new Set(metricsPorts.values())));
    const envOf = (app: App): Record<string, string> => ({
      LOG_LEVEL: 'info',
      OPERATORS_FILE: '',
      DATA_DIR: dataDir,
      OTEL_SDK_DISABLED: 'false',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1',
      OTEL_EXPORTER_PROMETHEUS_PORT: String(metricsPorts.get(app)),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_TRACES_SAMPLER: 'parentbased_always_on',
      HEALTH_PORT: '0',
      GAME_PORT: '0',
      GATEWAY_PORT: '0',
    });
    const start = (app: App, env: Record<string, string>) => {
      const process = new AppProcess(app, entry(app), { ...envOf(app), ...env });
      processes.set(app, process);
      return process.ready();
    };
    const sandbox = await start('operator-sandbox', {
      SANDBOX_PORT: '0',
      SANDBOX_HOST: '127.0.0.1',
      OPERATORS_JSON: operatorsJson('http://127.0.0.1:9/wallet/otel'),
    });
    sandboxUrl = String(sandbox['url']);
    const operators = { OPERATORS_JSON: operatorsJson(`${sandboxUrl}/wallet/${OPERATOR.id}`) };
    const [, , game] = await Promise.all([
      start('bonus-ledger', operators),
      start('wallet-dispatcher', operators),
      start('game-server', operators),
    ]);
    gameUrl = String(game?.['url']);
    gatewayUrl = String((await start('gateway', { ...operators, LAUNCH_BASE_URL: gameUrl }))['url']);

    // register → launch → one free spin, and the win reaches the operator's wallet.
    const operator = new OperatorClient(() => gatewayUrl, OPERATOR);
    const wallet = new SandboxAdmin(() => sandboxUrl, OPERATOR.id);
    await wallet.setBalance('otel_player', 10);
    issueId = await operator.registerFreeSpins({ playerId: 'otel_player', spins: 3 });
    const player = new PlayerClient(() => gameUrl, await operator.launch('otel_player'));
    const spin = await player.spin({ issueId });
    expect([spin.status, spin.body.data.kind]).toEqual([200, 'free']);
    await eventually(
      async () => expect((await wallet.transactions('otel_player')).map((row) => row.command)).toEqual(['win']),
      15_000,
      100,
    );
    // Probes, as a kubelet sends them: they must leave no span and no log line.
    for (let i = 0; i < 3; i++) {
      await call('GET', `${gatewayUrl}/readyz`);
      await call('GET', `${gameUrl}/healthz`);
    }
    const server = await eventually(
      () => {
        const found = receiver.spans.find(
          (span) => span.service === 'game-server' && span.kind === SERVER && span.name.endsWith('/spin'),
        );
        expect(found).toBeDefined();
        return found as ReceivedSpan;
      },
      10_000,
      100,
    );
    spinTraceId = server.traceId;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([...processes.values()].map((process) => process.kill('SIGKILL')));
    await receiver?.close();
    rmSync(dataDir, { recursive: true, force: true });
    if (buildDir) rmSync(buildDir, { recursive: true, force: true });
  });

  it('every process reports its service name and release version on target_info, and the Node runtime', async () => {
    for (const app of APPS) {
      const scraped = await scrape(app);
      const [target] = scraped.series('target_info');
      expect(target?.labels).toMatchObject({
        service_name: app,
        service_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      });
      expect(target?.labels['service_instance_id']).toBeDefined();
      for (const family of ['nodejs_eventloop_delay_p99', 'v8js_memory_heap_used', 'v8js_gc_duration_bucket'])
        expect([app, scraped.families.has(family)]).toEqual([app, true]);
    }
  });

  it('HTTP servers report request duration by route (a template, never a raw path with ids)', async () => {
    const routes = async (app: App) =>
      (await scrape(app))
        .series('http_server_request_duration_count')
        .map((sample) => `${sample.labels['http_request_method']} ${sample.labels['http_route']}`);
    expect(await routes('gateway')).toEqual(
      expect.arrayContaining(['POST /v1/bonus-call/register', 'POST /v1/game/launch']),
    );
    expect(await routes('game-server')).toContain('POST /api/sessions/:token/spin');
    expect(await routes('operator-sandbox')).toContain('POST /wallet/:operatorId');
    for (const app of ['gateway', 'game-server'] as const)
      expect((await routes(app)).filter((route) => /readyz|healthz/.test(route))).toEqual([]);
  });

  it('the gateway: registrations it decided (ADR 0011), append latency; the ledger: the bonus call that became active', async () => {
    const gateway = await scrape('gateway');
    expect(gateway.series('reelstream_bonus_registrations_total')).toContainEqual({
      labels: expect.objectContaining({ operator: OPERATOR.id, outcome: 'ok' }),
      value: 1,
    });
    expect(gateway.families.has('reelstream_eventstore_append_duration_seconds_bucket')).toBe(true);
    // Counted by the ledger's relay as it publishes the gateway's registration (ADR 0038), not by the gateway.
    expect(gateway.families.has('reelstream_bonus_state_changes_total')).toBe(false);
    await eventually(async () =>
      expect((await scrape('bonus-ledger')).series('reelstream_bonus_state_changes_total')).toContainEqual({
        labels: expect.objectContaining({ operator: OPERATOR.id, state: 'active' }),
        value: 1,
      }),
    );
  });

  // The ledger appends nothing in this flow (the gateway registers, the game-server spins): its append latency
  // shows with a cancel or an expiry, the gateway's below.
  it('the ledger: expiry backlog, relay and projection lag, consumer lag', async () => {
    const ledger = await scrape('bonus-ledger');
    expect(ledger.series('reelstream_bonus_expiry_overdue').map((sample) => sample.value)).toEqual([0]);
    await eventually(async () => {
      const lag = (await scrape('bonus-ledger')).series('reelstream_worker_lag');
      expect(Object.fromEntries(lag.map((sample) => [sample.labels['worker'], sample.value]))).toEqual({
        'bonus-relay': 0,
        'bonus-projection': 0,
      });
    });
    const commands = ledger
      .series('reelstream_bus_consumer_lag')
      .filter((sample) => sample.labels['group'] === 'bonus-ledger' && sample.labels['topic'] === 'bonus.commands');
    expect(commands.length).toBeGreaterThan(0);
    expect(commands.every((sample) => sample.labels['partition'] !== undefined)).toBe(true);
    expect(ledger.series('reelstream_bus_messages_parked_total')).toContainEqual({
      labels: expect.objectContaining({ topic: 'bonus.commands', group: 'bonus-ledger' }),
      value: 0,
    });
  });

  it('the dispatcher: callbacks by operator, command and outcome, their latency, dead letters and parked messages', async () => {
    const dispatcher = await scrape('wallet-dispatcher');
    expect(dispatcher.series('reelstream_wallet_callbacks_total')).toContainEqual({
      labels: expect.objectContaining({ operator: OPERATOR.id, command: 'win', outcome: 'OK' }),
      value: 1,
    });
    expect(
      dispatcher
        .series('reelstream_wallet_callback_duration_seconds_count')
        .filter((sample) => sample.labels['operator'] === OPERATOR.id && sample.labels['command'] === 'win')
        .map((sample) => sample.value),
    ).toEqual([1]);
    expect(dispatcher.families.has('reelstream_wallet_callback_duration_seconds_bucket')).toBe(true);
    expect(dispatcher.series('reelstream_wallet_dead_letters_total')).toEqual([
      { labels: expect.objectContaining({ operator: OPERATOR.id, command: 'win' }), value: 0 },
    ]);
    // Zero from the start per operator and state, so the first opening is an increase an alert sees.
    expect(
      dispatcher
        .series('reelstream_wallet_circuit_changes_total')
        .filter((sample) => sample.labels['operator'] === OPERATOR.id)
        .map((sample) => [sample.labels['to'], sample.value])
        .sort(),
    ).toEqual([
      ['closed', 0],
      ['half_open', 0],
      ['open', 0],
    ]);
    expect(dispatcher.series('reelstream_bus_messages_parked_total')).toContainEqual({
      labels: expect.objectContaining({ topic: 'wallet.requests', group: 'wallet-dispatcher' }),
      value: 0,
    });
    expect(
      dispatcher.series('reelstream_bus_consumer_lag').some((sample) => sample.labels['topic'] === 'wallet.requests'),
    ).toBe(true);
    expect(dispatcher.families.has('reelstream_eventstore_append_duration_seconds_bucket')).toBe(true);
  });

  it('the game-server: the round outbox lag and append latency', async () => {
    const game = await scrape('game-server');
    expect(game.series('reelstream_worker_lag').map((sample) => sample.labels['worker'])).toEqual(['round-outbox']);
    expect(game.families.has('reelstream_eventstore_append_duration_seconds_bucket')).toBe(true);
  });

  it('one trace follows the free spin: player request → ledger → relay → dispatcher → operator callback', async () => {
    const inTrace = () => receiver.spans.filter((span) => span.traceId === spinTraceId);
    const has = (service: string, kind: number, name: string | RegExp) =>
      inTrace().some(
        (span) =>
          span.service === service &&
          span.kind === kind &&
          (typeof name === 'string' ? span.name === name : name.test(span.name)),
      );
    await eventually(
      () => {
        expect(has('game-server', SERVER, 'POST /api/sessions/:token/spin')).toBe(true);
        // The game-server decides the free spin on the player's bonus stream (ADR 0006); the ledger's
        // relay reads the settled event and publishes the win in the spin's trace, not a root trace of its own.
        expect(has('bonus-ledger', PRODUCER, 'send wallet.requests')).toBe(true);
        expect(has('wallet-dispatcher', CONSUMER, 'process wallet.requests')).toBe(true);
        expect(has('wallet-dispatcher', CLIENT, /^POST/)).toBe(true);
        expect(has('operator-sandbox', SERVER, 'POST /wallet/:operatorId')).toBe(true);
      },
      15_000,
      200,
    );
    // Every span of the trace but its root has its parent in the trace: one tree, no orphaned hop.
    const ids = new Set(inTrace().map((span) => span.spanId));
    const roots = inTrace().filter((span) => span.parentSpanId === undefined || !ids.has(span.parentSpanId));
    expect(roots.map((span) => `${span.service} ${span.name}`)).toEqual(['game-server POST /api/sessions/:token/spin']);
    // The relay's send span descends from the player's spin request (through the event's stored trace
    // context), the dispatcher's handling hangs below the relay's send.
    const spans = new Map(inTrace().map((span) => [span.spanId, span]));
    const ancestry = (spanId: string | undefined): string[] => {
      const chain: string[] = [];
      for (
        let span = spanId ? spans.get(spanId) : undefined;
        span;
        span = span.parentSpanId ? spans.get(span.parentSpanId) : undefined
      )
        chain.push(`${span.service} ${span.name}`);
      return chain;
    };
    const relaySend = inTrace().find((span) => span.service === 'bonus-ledger' && span.name === 'send wallet.requests');
    expect(ancestry(relaySend?.spanId).at(-1)).toBe('game-server POST /api/sessions/:token/spin');
    // The dispatcher also consumes the bonus's webhooks (ADR 0008): the win's handling is the one on wallet.requests.
    const dispatch = inTrace().find(
      (span) =>
        span.service === 'wallet-dispatcher' && span.kind === CONSUMER && span.name === 'process wallet.requests',
    );
    expect(dispatch?.parentSpanId).toBe(relaySend?.spanId);
  });

  it('one trace follows the registration: the gateway decides it (ADR 0011), the ledger relay publishes it in that trace', async () => {
    const register = receiver.spans.find(
      (span) => span.service === 'gateway' && span.kind === SERVER && span.name === 'POST /v1/bonus-call/register',
    );
    expect(register).toBeDefined();
    const inTrace = () => receiver.spans.filter((span) => span.traceId === register?.traceId);
    // No request/reply to the ledger for it any more.
    expect(inTrace().some((span) => span.name === 'send bonus.commands')).toBe(false);
    // The relay reads the registration's events, which carry the request's trace context.
    const relayed = await eventually(
      () => {
        const found = inTrace().find((span) => span.service === 'bonus-ledger' && span.name === 'send bonus.events');
        expect(found?.kind).toBe(PRODUCER);
        return found as ReceivedSpan;
      },
      15_000,
      200,
    );
    const spans = new Map(inTrace().map((span) => [span.spanId, span]));
    let root = relayed;
    while (root.parentSpanId !== undefined && spans.has(root.parentSpanId))
      root = spans.get(root.parentSpanId) as ReceivedSpan;
    expect(root.spanId).toBe(register?.spanId);
  });

  it('probes are neither traced nor logged', () => {
    const probeSpans = receiver.spans.filter((span) =>
      /\/(healthz|readyz|metrics)\b/.test(`${span.name} ${String(span.attributes['url.path'] ?? '')}`),
    );
    expect(probeSpans).toEqual([]);
    for (const app of ['gateway', 'game-server'] as const)
      expect(processes.get(app)?.lines.filter((line) => /\/(healthz|readyz)/.test(line))).toEqual([]);
  });
});
