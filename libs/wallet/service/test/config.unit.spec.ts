import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@reelstream/platform-config';
import { dispatcherSettingsFromEnv } from '../src/index.js';

describe('the dispatcher’s bulkhead and concurrency settings', () => {
  it('default to 32 keys per partition and, per operator, 64 in flight, 1 s queue wait, 5 failures, 5 s open', () => {
    const { config } = dispatcherSettingsFromEnv({});
    expect(config).toMatchObject({
      keyConcurrency: 32,
      bulkhead: { maxInFlight: 64, maxQueueWaitMs: 1_000, failureThreshold: 5, openMs: 5_000 },
      operatorBulkheads: {},
    });
  });

  it('read per-operator overrides from OPERATOR_BULKHEADS_JSON', () => {
    const { config } = dispatcherSettingsFromEnv({
      WALLET_KEY_CONCURRENCY: '32',
      OPERATOR_MAX_IN_FLIGHT: '4',
      OPERATOR_BULKHEADS_JSON: '{"casino_b":{"maxInFlight":2,"openMs":10000}}',
    });
    expect(config).toMatchObject({
      keyConcurrency: 32,
      bulkhead: { maxInFlight: 4 },
      operatorBulkheads: { casino_b: { maxInFlight: 2, openMs: 10_000 } },
    });
  });

  it('refuse a bad override with the variable named', () => {
    expect(() => dispatcherSettingsFromEnv({ OPERATOR_BULKHEADS_JSON: '{"casino_b":{"maxInflight":2}}' })).toThrow(
      ConfigError,
    );
    expect(() => dispatcherSettingsFromEnv({ OPERATOR_BULKHEADS_JSON: 'not json' })).toThrow(/OPERATOR_BULKHEADS_JSON/);
    expect(() => dispatcherSettingsFromEnv({ OPERATOR_MAX_IN_FLIGHT: '0' })).toThrow(/OPERATOR_MAX_IN_FLIGHT/);
  });
});
