import { describe, expect, it } from '@jest/globals';
import { ANY, NO_STREAM, STREAM_EXISTS } from '@eventstore/db-client';
import {
  satisfiesExpectedRevision,
  toEsdbExpectedRevision,
  toEsdbRevision,
  toPortRevision,
} from '../src/expected-revision.js';

describe('expected revision mapping', () => {
  it('maps the keywords onto the client constants', () => {
    expect(toEsdbExpectedRevision('no_stream')).toBe(NO_STREAM);
    expect(toEsdbExpectedRevision('stream_exists')).toBe(STREAM_EXISTS);
    expect(toEsdbExpectedRevision('any')).toBe(ANY);
  });

  it('maps a revision onto a bigint, 0 included', () => {
    expect(toEsdbExpectedRevision(0)).toBe(0n);
    expect(toEsdbExpectedRevision(41)).toBe(41n);
    expect(toEsdbExpectedRevision(Number.MAX_SAFE_INTEGER)).toBe(9007199254740991n);
  });

  it('refuses negative, fractional and unsafe revisions before they reach the server', () => {
    for (const bad of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => toEsdbExpectedRevision(bad)).toThrow(RangeError);
      expect(() => toEsdbRevision(bad)).toThrow(RangeError);
    }
  });

  it('reads server revisions back as numbers and refuses what a number cannot hold', () => {
    expect(toPortRevision(0n)).toBe(0);
    expect(toPortRevision(12n)).toBe(12);
    expect(() => toPortRevision(2n ** 53n)).toThrow(RangeError);
    expect(() => toPortRevision(-1n)).toThrow(RangeError);
  });

  it('checks an empty append the way the server checks a real one', () => {
    expect(satisfiesExpectedRevision('any', undefined)).toBe(true);
    expect(satisfiesExpectedRevision('any', 4)).toBe(true);
    expect(satisfiesExpectedRevision('no_stream', undefined)).toBe(true);
    expect(satisfiesExpectedRevision('no_stream', 0)).toBe(false);
    expect(satisfiesExpectedRevision('stream_exists', undefined)).toBe(false);
    expect(satisfiesExpectedRevision('stream_exists', 0)).toBe(true);
    expect(satisfiesExpectedRevision(0, 0)).toBe(true);
    expect(satisfiesExpectedRevision(3, 0)).toBe(false);
    expect(satisfiesExpectedRevision(0, undefined)).toBe(false);
  });
});
