import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { loadOperators } from '@reelstream/platform-config';
import { sandboxConfigFromEnv } from '@reelstream/sandbox-service';
import { z } from 'zod';

const composePath = fileURLToPath(new URL('../compose.yml', import.meta.url));

const service = z.object({
  image: z.string(),
  ports: z.array(z.string()),
  environment: z.record(z.string(), z.string()),
  healthcheck: z.object({
    test: z.array(z.string()).min(2),
    interval: z.string(),
    timeout: z.string(),
    retries: z.number().int().positive(),
  }),
});
const APPS = ['gateway', 'bonus-ledger', 'wallet-dispatcher', 'game-server', 'operator-sandbox'] as const;
const app = z.object({
  image: z.string(),
  build: z.object({ context: z.literal('..'), dockerfile: z.literal('docker/Dockerfile') }).strict(),
  profiles: z.tuple([z.literal('full')]),
  command: z.tuple([z.string()]),
  read_only: z.literal(true),
  user: z.string(),
  tmpfs: z.array(z.string()),
  volumes: z.array(z.string()),
  environment: z.record(z.string(), z.string()),
  ports: z.array(z.string()).optional(),
  depends_on: z.record(z.string(), z.object({ condition: z.string() })),
  restart: z.string(),
});
const observability = z.object({ image: z.string(), profiles: z.tuple([z.literal('full')]) }).passthrough();
const composeFile = z.object({
  services: z
    .object({
      kafka: service,
      eventstore: service,
      'otel-collector': observability,
      jaeger: observability,
      gateway: app,
      'bonus-ledger': app,
      'wallet-dispatcher': app,
      'game-server': app,
      'operator-sandbox': app,
    })
    .strict(),
  volumes: z.object({ 'reelstream-data': z.null() }).strict(),
});

const composeText = readFileSync(composePath, 'utf8');
const compose = composeFile.parse(parse(composeText, { merge: true }));
const { kafka, eventstore } = compose.services;
const apps = APPS.map((name) => [name, compose.services[name]] as const);

/**
 * `docker-compose config` (Debian's docker-compose, which .ci/run installs) validates the file
 * against the Compose schema; `null` where it is not installed.
 */
function composeConfig(file: string): { status: number | null; output: string } | null {
  const probe = spawnSync('docker-compose', ['version'], { encoding: 'utf8' });
  if (probe.error) return null;
  const result = spawnSync('docker-compose', ['-f', file, '--profile', 'full', 'config', '-q'], {
    encoding: 'utf8',
    env: { ...process.env, COMPOSE_PROJECT_NAME: 'reelstream' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** `repository:tag` with a tag that names a release, not a moving pointer. */
function pinnedTag(image: string): string {
  const tag = /^[a-z0-9./-]+:(?<tag>[A-Za-z0-9._-]+)$/.exec(image)?.groups?.['tag'];
  if (!tag) throw new Error(`image ${image} has no tag`);
  return tag;
}

describe('docker/compose.yml', () => {
  it('runs Kafka and EventStoreDB by default, everything else under the `full` profile, third parties pinned', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['eventstore', 'kafka', 'otel-collector', 'jaeger', ...APPS].sort(),
    );
    const services = compose.services as Record<string, { profiles?: string[] }>;
    const unprofiled = Object.keys(services).filter((name) => services[name]?.profiles === undefined);
    expect(unprofiled.sort()).toEqual(['eventstore', 'kafka']);
    expect(kafka.image.startsWith('apache/kafka:')).toBe(true);
    expect(eventstore.image.startsWith('eventstore/eventstore:')).toBe(true);
    expect(compose.services['otel-collector'].image.startsWith('otel/opentelemetry-collector')).toBe(true);
    expect(compose.services.jaeger.image.startsWith('jaegertracing/all-in-one:')).toBe(true);
    for (const image of [
      kafka.image,
      eventstore.image,
      compose.services['otel-collector'].image,
      compose.services.jaeger.image,
    ]) {
      const tag = pinnedTag(image);
      expect(tag).not.toMatch(/latest|lts|stable|nightly|ci/i);
      expect(tag).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('publishes the ports the test scripts and the default URLs use', () => {
    expect(kafka.ports).toContain('9092:9092');
    expect(eventstore.ports).toContain('2113:2113');
  });

  it('runs Kafka in KRaft mode as one broker-and-controller node reachable from the host', () => {
    const env = kafka.environment;
    expect(env['KAFKA_PROCESS_ROLES']?.split(',').sort()).toEqual(['broker', 'controller']);
    expect(env['KAFKA_CONTROLLER_QUORUM_VOTERS']).toBe(`${env['KAFKA_NODE_ID']}@localhost:9093`);
    expect(env['KAFKA_ADVERTISED_LISTENERS']?.split(',')).toEqual([
      'PLAINTEXT://localhost:9092',
      'COMPOSE://kafka:19092',
    ]);
    expect(env['KAFKA_LISTENERS']).toContain('PLAINTEXT://:9092');
    expect(env['KAFKA_LISTENERS']).toContain('COMPOSE://:19092');
    expect(env['KAFKA_LISTENER_SECURITY_PROTOCOL_MAP']).toContain('COMPOSE:PLAINTEXT');
    expect(env['KAFKA_CONTROLLER_LISTENER_NAMES']).toBe('CONTROLLER');
    expect(Object.keys(env).some((name) => name.includes('ZOOKEEPER'))).toBe(false);
    // kafka-storage formats the log with the cluster id: it must be 16 bytes in base64url.
    expect(Buffer.from(env['CLUSTER_ID'] ?? '', 'base64url')).toHaveLength(16);
    for (const name of [
      'KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR',
      'KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR',
      'KAFKA_TRANSACTION_STATE_LOG_MIN_ISR',
    ]) {
      expect(env[name]).toBe('1');
    }
    expect(env['KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS']).toBe('0');
  });

  it('runs EventStoreDB insecure, on disk, without projections', () => {
    expect(eventstore.environment).toMatchObject({
      EVENTSTORE_INSECURE: 'true',
      EVENTSTORE_RUN_PROJECTIONS: 'None',
      EVENTSTORE_MEM_DB: 'false',
    });
  });

  it('gives both services a healthcheck so `up --wait` waits until they answer', () => {
    expect(kafka.healthcheck.test[0]).toBe('CMD-SHELL');
    expect(kafka.healthcheck.test[1]).toContain('--bootstrap-server localhost:9092');
    expect(eventstore.healthcheck.test[1]).toContain('http://localhost:2113/health/live');
    for (const { healthcheck } of [kafka, eventstore]) {
      expect(healthcheck.interval).toMatch(/^\d+s$/);
      expect(healthcheck.retries).toBeGreaterThanOrEqual(10);
    }
  });

  it('runs every app from the image built from docker/Dockerfile, hardened as the manifests run it', () => {
    for (const [name, service] of apps) {
      expect(service.image).toBe(compose.services.gateway.image);
      expect(service.command).toEqual([name]);
      expect(service.user).toBe('10001:10001');
      expect(service.tmpfs).toEqual(['/tmp']);
      expect(service.volumes).toEqual(['reelstream-data:/data']);
    }
    // The platform's services share one bus and one store and send their telemetry to the collector.
    for (const [, service] of apps.filter(([name]) => name !== 'operator-sandbox')) {
      expect(service.environment).toMatchObject({
        BUS_URL: 'kafka://kafka:19092',
        EVENT_STORE_URL: 'esdb://eventstore:2113?tls=false',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector:4318',
      });
      expect(Object.keys(service.depends_on).sort()).toEqual(['eventstore', 'kafka', 'otel-collector']);
      expect(service.environment['OPERATORS_JSON']).toBe(
        compose.services['operator-sandbox'].environment.OPERATORS_JSON,
      );
    }
    // The dispatcher reaches the sandbox's wallet from another container: it listens on every interface.
    const operators = z
      .array(z.object({ callbackUrl: z.string() }))
      .parse(JSON.parse(compose.services['operator-sandbox'].environment.OPERATORS_JSON ?? ''));
    expect(operators.map(({ callbackUrl }) => new URL(callbackUrl).host)).toEqual(['operator-sandbox:8082']);
    expect(compose.services['operator-sandbox'].environment).toMatchObject({ SANDBOX_HOST: '0.0.0.0' });
    expect(compose.services['operator-sandbox'].environment['SANDBOX_ADMIN_TOKEN']?.length).toBeGreaterThanOrEqual(16);
  });

  it("starts under the image's NODE_ENV=production: every app accepts the operators, the sandbox its bind and admin token", () => {
    expect(readFileSync(fileURLToPath(new URL('../Dockerfile', import.meta.url)), 'utf8')).toMatch(
      /^ENV NODE_ENV=production /m,
    );
    const dataDir = mkdtempSync(join(tmpdir(), 'compose-operators-'));
    try {
      for (const name of APPS) {
        const env = { NODE_ENV: 'production', DATA_DIR: dataDir, ...compose.services[name].environment };
        expect({ name, schemes: loadOperators(env, () => []).operators.map((o) => o.signatureScheme) }).toEqual({
          name,
          schemes: ['timestamp.body'],
        });
      }
      const sandbox = sandboxConfigFromEnv({
        NODE_ENV: 'production',
        DATA_DIR: dataDir,
        ...compose.services['operator-sandbox'].environment,
      });
      expect(sandbox.config.host).toBe('0.0.0.0');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('passes `docker-compose config` with the full profile, and a broken copy does not', () => {
    const valid = composeConfig(composePath);
    if (valid === null) {
      if (process.env['CI']) throw new Error('docker-compose is not installed: .ci/run installs it');
      process.stdout.write('docker-compose not installed: the Compose schema check did not run (CI runs it)\n');
      return;
    }
    expect(valid).toEqual({ status: 0, output: '' });
    const scratch = mkdtempSync(join(tmpdir(), 'compose-'));
    try {
      const broken = join(scratch, 'compose.yml');
      writeFileSync(broken, composeText.replace('read_only: true', 'read_only: sometimes'));
      const refused = composeConfig(broken);
      expect(refused?.status).not.toBe(0);
      expect(refused?.output).toContain('read_only');
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
