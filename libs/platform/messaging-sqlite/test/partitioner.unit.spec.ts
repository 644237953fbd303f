import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { Partitioners } from 'kafkajs';
import { murmur2, partitionFor } from '@reelstream/platform-messaging-sqlite';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('partitioner', () => {
  it("hashes like Kafka's murmur2 (reference values of the Java client)", () => {
    // From Apache Kafka's UtilsTest.testMurmur2.
    expect(murmur2(bytes('21'))).toBe(-973932308);
    expect(murmur2(bytes('foobar'))).toBe(-790332482);
    expect(murmur2(bytes('a-little-bit-long-string'))).toBe(-985981536);
    expect(murmur2(bytes('a-little-bit-longer-string'))).toBe(-1486304829);
    expect(murmur2(bytes('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8'))).toBe(-58897971);
    expect(murmur2(new Uint8Array([97, 98, 99]))).toBe(479470107);
  });

  it("puts every key in the partition kafkajs's default partitioner picks", () => {
    const kafkajs = Partitioners.DefaultPartitioner();
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        (key, partitions) => {
          const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({
            partitionErrorCode: 0,
            partitionId,
            leader: 0,
            replicas: [0],
            isr: [0],
          }));
          const expected = kafkajs({ topic: 't', partitionMetadata, message: { key, value: null } });
          expect(partitionFor(key, partitions)).toBe(expected);
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('spreads keys over every partition', () => {
    const partitions = Array.from({ length: 1_600 }, (_, n) => partitionFor(`player-${n}`, 16));
    const counts = Array.from({ length: 16 }, (_, p) => partitions.filter((partition) => partition === p).length);
    for (const count of counts) expect(count).toBeGreaterThan(50);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1_600);
  });
});
