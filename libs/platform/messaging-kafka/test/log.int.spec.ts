/**
 * kafkajs's own lines go through the process's logger: each entry at its level, kafkajs's namespace
 * in the message and its fields as fields (kafkajs's real logger feeding `kafkaLogCreator`); and the
 * bus opened with `log` against a real Kafka (`KAFKA_BROKERS`) writes kafkajs's producer warning
 * there, not to the console.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { logLevel } from 'kafkajs';
import { kafkaLogCreator, openKafkaMessageBus, parseBrokerList, type KafkaLog } from '../src/index.js';

const require = createRequire(import.meta.url);
const { createLogger } = require('kafkajs/src/loggers/index.js') as {
  createLogger(options: { level: number; logCreator: ReturnType<typeof kafkaLogCreator> }): {
    namespace(name: string): Record<'debug' | 'info' | 'warn' | 'error', (message: string, extra?: object) => void>;
  };
};

interface Line {
  level: keyof KafkaLog;
  msg: string;
  fields: Record<string, unknown> | undefined;
}

function recordingLog(): KafkaLog & { lines: Line[] } {
  const lines: Line[] = [];
  const at = (level: keyof KafkaLog) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, fields });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('kafkaLogCreator', () => {
  it('writes each kafkajs entry at its level, with its namespace and fields, above the configured level only', () => {
    const log = recordingLog();
    const connection = createLogger({ level: logLevel.INFO, logCreator: kafkaLogCreator(log) }).namespace('Connection');
    connection.error('Response Metadata', { broker: '127.0.0.1:9092', error: 'timed out', correlationId: 7 });
    connection.warn('Connection timeout', { broker: '127.0.0.1:9092' });
    connection.info('connected');
    connection.debug('request sent');
    expect(log.lines).toEqual([
      {
        level: 'error',
        msg: 'kafkajs Connection: Response Metadata',
        fields: { component: 'kafkajs', broker: '127.0.0.1:9092', error: 'timed out', correlationId: 7 },
      },
      {
        level: 'warn',
        msg: 'kafkajs Connection: Connection timeout',
        fields: { component: 'kafkajs', broker: '127.0.0.1:9092' },
      },
      { level: 'info', msg: 'kafkajs Connection: connected', fields: { component: 'kafkajs' } },
    ]);
  });
});

const brokers = process.env['KAFKA_BROKERS'];
if (brokers) {
  describe('the bus opened with a log, on a real Kafka', () => {
    it("writes kafkajs's producer warning to that log and nothing to the console", async () => {
      const console = jest.spyOn(globalThis.console, 'warn').mockImplementation(() => undefined);
      const log = recordingLog();
      const bus = await openKafkaMessageBus(parseBrokerList(brokers), { log });
      await bus.close();
      // The idempotent producer with bounded retries (PRODUCER_CONFIG) is warned about at its creation.
      expect(log.lines).toContainEqual({
        level: 'warn',
        msg: 'kafkajs Producer: Limiting retries for the idempotent producer may invalidate EoS guarantees',
        fields: { component: 'kafkajs' },
      });
      expect(console).not.toHaveBeenCalled();
    }, 60_000);
  });
} else {
  process.stdout.write(
    "[kafka] kafkajs's lines through the bus's log NOT checked on a real Kafka: KAFKA_BROKERS is not set.\n",
  );
}
