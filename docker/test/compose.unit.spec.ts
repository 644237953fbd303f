import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
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
const composeFile = z.object({ services: z.object({ kafka: service, eventstore: service }).strict() });

const compose = composeFile.parse(parse(readFileSync(composePath, 'utf8')));
const { kafka, eventstore } = compose.services;

/** `repository:tag` with a tag that names a release, not a moving pointer. */
function pinnedTag(image: string): string {
  const tag = /^[a-z0-9./-]+:(?<tag>[A-Za-z0-9._-]+)$/.exec(image)?.groups?.['tag'];
  if (!tag) throw new Error(`image ${image} has no tag`);
  return tag;
}

describe('docker/compose.yml', () => {
  it('runs exactly Kafka and EventStoreDB from their official images, pinned to a release', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['eventstore', 'kafka']);
    expect(kafka.image.startsWith('apache/kafka:')).toBe(true);
    expect(eventstore.image.startsWith('eventstore/eventstore:')).toBe(true);
    for (const image of [kafka.image, eventstore.image]) {
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
    expect(env['KAFKA_ADVERTISED_LISTENERS']).toBe('PLAINTEXT://localhost:9092');
    expect(env['KAFKA_LISTENERS']).toContain('PLAINTEXT://:9092');
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
});
