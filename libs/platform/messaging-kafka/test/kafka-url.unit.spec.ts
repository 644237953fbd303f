import { describe, expect, it } from '@jest/globals';
import { InvalidKafkaUrlError, parseBrokerList, parseKafkaUrl } from '../src/kafka-url.js';

describe('Kafka URLs', () => {
  it('reads the brokers of a kafka:// URL', () => {
    expect(parseKafkaUrl('kafka://b1:9092,b2:9092')).toEqual(['b1:9092', 'b2:9092']);
    expect(parseKafkaUrl('kafka://kafka.reelstream.svc.cluster.local:9093/')).toEqual([
      'kafka.reelstream.svc.cluster.local:9093',
    ]);
    expect(parseKafkaUrl('  KAFKA://localhost:9092 ')).toEqual(['localhost:9092']);
  });

  it('defaults a missing port to 9092 and accepts IPv6 literals', () => {
    expect(parseKafkaUrl('kafka://broker1,broker2:19092')).toEqual(['broker1:9092', 'broker2:19092']);
    expect(parseBrokerList('[::1]:9092')).toEqual(['[::1]:9092']);
  });

  it('reads the KAFKA_BROKERS form, trimming blanks around entries', () => {
    expect(parseBrokerList('localhost:9092')).toEqual(['localhost:9092']);
    expect(parseBrokerList('a:1, b:2')).toEqual(['a:1', 'b:2']);
  });

  it('refuses other schemes, empty entries, bad hosts and bad ports', () => {
    for (const bad of [
      'sqlite:./data/x.db',
      'kafka://',
      'kafka://a:9092,,b:9092',
      'kafka://a b:9092',
      'kafka://a:0',
      'kafka://a:70000',
      'kafka://a:9092?acks=1',
      'b1:9092',
    ]) {
      expect(() => parseKafkaUrl(bad)).toThrow(InvalidKafkaUrlError);
    }
    expect(() => parseBrokerList('')).toThrow(/empty broker entry/);
  });
});
