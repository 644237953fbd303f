import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '@reelstream/platform-config';
import { OperatorsConfigError, ReelstreamError, isRetriable } from '@reelstream/contracts';
import { InvalidKafkaUrlError } from '@reelstream/platform-messaging-kafka';
import { InvalidLogLevelError, TelemetryConfigError } from '@reelstream/platform-telemetry';
import { describeStartupFailure, EXIT_CONFIGURATION, EXIT_FAILURE, isConfigurationError } from './startup-failure.js';

describe('a start-up failure is classified by its code, not by a list of class names', () => {
  it.each([
    new ConfigError(['GATEWAY_PORT: must be a port number']),
    new OperatorsConfigError('operators.json', ['operators[0].id: required']),
    new TelemetryConfigError('OTEL_EXPORTER_PROMETHEUS_PORT must be a port number'),
    new InvalidLogLevelError('loud'),
    new InvalidKafkaUrlError('kafka://', 'expected kafka://host:port'),
    new ReelstreamError('CONFIGURATION_INVALID', 'a new kind of bad setting', { retriable: false }),
  ])('%s is configuration: exit 2, not retriable', (error) => {
    expect(isConfigurationError(error)).toBe(true);
    expect(isRetriable(error)).toBe(false);
    expect(describeStartupFailure('gateway', error)).toEqual({
      exitCode: EXIT_CONFIGURATION,
      message: `gateway did not start: ${error.message}`,
    });
  });

  it.each([
    new Error('the event store does not answer'),
    new ReelstreamError('SERVICE_UNAVAILABLE', 'no answer', { retriable: true }),
    new ReelstreamError('EVENT_NOT_READABLE', 'unknown event type "Nope"', { retriable: false }),
    Object.assign(new Error('a socket error with its own code'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('a foreign error shaped like ours'), { code: 'CONFIGURATION_INVALID' }),
  ])('%s is not: exit 1', (error) => {
    expect(isConfigurationError(error)).toBe(false);
    expect(describeStartupFailure('gateway', error).exitCode).toBe(EXIT_FAILURE);
  });
});
