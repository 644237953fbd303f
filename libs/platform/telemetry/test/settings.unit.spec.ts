import { describe, expect, it } from '@jest/globals';
import { resolveTelemetrySettings, TelemetryConfigError } from '../src/settings.js';

const resolve = (env: Record<string, string>) =>
  resolveTelemetrySettings({ serviceName: 'gateway', serviceVersion: '0.1.0' }, env);

describe('resolveTelemetrySettings', () => {
  it('exports nothing when nothing is configured', () => {
    expect(resolve({})).toEqual({
      disabled: false,
      serviceName: 'gateway',
      serviceVersion: '0.1.0',
      traceExporters: [],
      metricExporters: [],
      prometheus: { port: 9464 },
      sampler: { name: 'parentbased_always_on' },
    });
  });

  it('lets OTEL_SERVICE_NAME override the service name', () => {
    expect(resolve({ OTEL_SERVICE_NAME: 'gateway-eu' }).serviceName).toBe('gateway-eu');
    expect(resolve({ OTEL_SERVICE_NAME: '  ' }).serviceName).toBe('gateway');
  });

  it('turns OTLP on for traces and metrics when an OTLP endpoint is set', () => {
    expect(resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toMatchObject({
      traceExporters: ['otlp'],
      metricExporters: ['otlp'],
    });
    expect(resolve({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toMatchObject({
      traceExporters: ['otlp'],
      metricExporters: [],
    });
  });

  it('takes exporter lists as given, deduplicated and case-insensitive', () => {
    expect(resolve({ OTEL_TRACES_EXPORTER: 'OTLP, console,otlp', OTEL_METRICS_EXPORTER: 'prometheus' })).toMatchObject({
      traceExporters: ['otlp', 'console'],
      metricExporters: ['prometheus'],
    });
  });

  it('lets "none" switch a signal off even with an endpoint', () => {
    expect(
      resolve({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toMatchObject({
      traceExporters: [],
      metricExporters: ['otlp'],
    });
  });

  it('refuses unknown exporters and "none" mixed with others', () => {
    expect(() => resolve({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(TelemetryConfigError);
    expect(() => resolve({ OTEL_TRACES_EXPORTER: 'jaeger' })).toThrow(
      'OTEL_TRACES_EXPORTER: unsupported exporter "jaeger"; supported: otlp, zipkin, console, none',
    );
    expect(() => resolve({ OTEL_METRICS_EXPORTER: 'none,prometheus' })).toThrow(/cannot be combined/);
  });

  it('reads the Prometheus port and host, and refuses a port that is not one', () => {
    expect(
      resolve({ OTEL_EXPORTER_PROMETHEUS_PORT: '9100', OTEL_EXPORTER_PROMETHEUS_HOST: '127.0.0.1' }).prometheus,
    ).toEqual({ host: '127.0.0.1', port: 9100 });
    expect(() => resolve({ OTEL_EXPORTER_PROMETHEUS_PORT: 'http' })).toThrow(
      'OTEL_EXPORTER_PROMETHEUS_PORT must be a port number (1-65535); got "http"',
    );
    expect(() => resolve({ OTEL_EXPORTER_PROMETHEUS_PORT: '70000' })).toThrow(TelemetryConfigError);
  });

  it('is disabled only by a case-insensitive "true"', () => {
    expect(resolve({ OTEL_SDK_DISABLED: 'TRUE' }).disabled).toBe(true);
    expect(resolve({ OTEL_SDK_DISABLED: 'false' }).disabled).toBe(false);
    expect(resolve({ OTEL_SDK_DISABLED: '1' }).disabled).toBe(false);
  });
});
