import { ReelstreamError } from '@reelstream/contracts';
export class InvalidKafkaUrlError extends ReelstreamError {
  override readonly name = 'InvalidKafkaUrlError';
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super('CONFIGURATION_INVALID', `invalid Kafka broker list ${JSON.stringify(input)}: ${reason}`, {
      retriable: false,
    });
  }
}

const DEFAULT_KAFKA_PORT = 9092;
const BROKER = /^(?<host>[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::(?<port>\d{1,5}))?$/;

/** `b1:9092,b2` → `['b1:9092', 'b2:9092']`: the `KAFKA_BROKERS` form, the port defaulting to 9092. */
export function parseBrokerList(list: string): string[] {
  const entries = list.split(',').map((entry) => entry.trim());
  if (entries.length === 0 || entries.some((entry) => entry.length === 0))
    throw new InvalidKafkaUrlError(list, 'empty broker entry');
  return entries.map((entry) => {
    const match = BROKER.exec(entry);
    const host = match?.groups?.['host'];
    if (!host) throw new InvalidKafkaUrlError(list, `bad broker ${JSON.stringify(entry)}`);
    const port = Number(match.groups?.['port'] ?? DEFAULT_KAFKA_PORT);
    if (port < 1 || port > 65_535) throw new InvalidKafkaUrlError(list, `bad port in ${JSON.stringify(entry)}`);
    return `${host}:${port}`;
  });
}

/** `kafka://b1:9092,b2:9092` (the `BUS_URL` form) → `['b1:9092', 'b2:9092']`. */
export function parseKafkaUrl(url: string): string[] {
  const match = /^kafka:\/\/([^/?#]*)\/?$/i.exec(url.trim());
  if (!match) throw new InvalidKafkaUrlError(url, 'expected kafka://host:port[,host:port…]');
  return parseBrokerList(match[1] ?? '');
}
