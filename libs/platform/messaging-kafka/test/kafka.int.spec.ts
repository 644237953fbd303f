/**
 * The MessageBus contract against a real Kafka, when `KAFKA_BROKERS` names one (`npm run test:infra`
 * starts it from docker/compose.yml). The tests below it need no broker and always run.
 */
import { describe, expect, it } from '@jest/globals';
import { describeMessageBusContract } from '@reelstream/testing';
import { openKafkaMessageBus, parseBrokerList, parseKafkaUrl } from '../src/index.js';

const brokers = process.env['KAFKA_BROKERS'];

if (brokers) {
  describeMessageBusContract(
    async () => ({
      adapter: 'kafka',
      url: `kafka://${brokers}`,
      open: (options) => openKafkaMessageBus(parseBrokerList(brokers), options?.instanceId ? { instanceId: options.instanceId } : {}),
      // Every case uses fresh topics and groups; the broker itself belongs to docker compose.
      dispose: async () => undefined,
    }),
    'kafka',
  );
} else {
  process.stdout.write(
    '[contract] MessageBus contract suite NOT run against Kafka: KAFKA_BROKERS is not set (it ran against the embedded SQLite adapter).\n',
  );
}

describe('openKafkaMessageBus before it connects', () => {
  it('refuses an empty broker list', async () => {
    await expect(openKafkaMessageBus([])).rejects.toThrow(/at least one broker/);
  });

  it('refuses topic settings that no broker would accept', async () => {
    await expect(openKafkaMessageBus(['localhost:9092'], { partitions: 0 })).rejects.toThrow(/partitions must be a positive integer/);
    await expect(openKafkaMessageBus(['localhost:9092'], { replicationFactor: 1.5 })).rejects.toThrow(/replicationFactor/);
    await expect(openKafkaMessageBus(['localhost:9092'], { sessionTimeoutMs: -1 })).rejects.toThrow(/sessionTimeoutMs/);
  });

  it('reads the BUS_URL the platform passes and the KAFKA_BROKERS the tests pass the same way', () => {
    expect(parseKafkaUrl('kafka://localhost:9092')).toEqual(parseBrokerList('localhost:9092'));
  });
});
