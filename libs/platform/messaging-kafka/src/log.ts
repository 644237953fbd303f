/**
 * kafkajs's own log lines through the process's logger (kafkajs's `logCreator`): the same JSON lines,
 * levels, service and trace ids as every other line of the process, instead of kafkajs's console
 * lines in a format of their own. kafkajs's namespace (`Connection`, `Producer`, `ConsumerGroup`…)
 * and its fields (broker, clientId, groupId, error…) become fields of the line.
 */
import { logLevel, type LogEntry, type logCreator } from 'kafkajs';

type LogFields = Record<string, unknown>;

/** What the bus logs through; the platform's logger has this shape (message first, fields second). */
export interface KafkaLog {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/** A kafkajs `logCreator` writing each entry to `log` at its level. */
export function kafkaLogCreator(log: KafkaLog): logCreator {
  return () =>
    ({ namespace, level, log: entry }: LogEntry) => {
      // kafkajs's own timestamp and logger name are the line's already.
      const { message, timestamp: _timestamp, logger: _logger, ...fields } = entry as LogFields & { message: string };
      const line = `kafkajs${namespace ? ` ${namespace}` : ''}: ${message}`;
      const withSource = { component: 'kafkajs', ...fields };
      if (level === logLevel.DEBUG) log.debug(line, withSource);
      else if (level === logLevel.INFO) log.info(line, withSource);
      else if (level === logLevel.WARN) log.warn(line, withSource);
      else log.error(line, withSource);
    };
}
