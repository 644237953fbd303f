import { z } from 'zod';
import { ReelstreamError } from '@reelstream/contracts';

export type Env = Readonly<Record<string, string | undefined>>;

const traceExporterNames = ['otlp', 'zipkin', 'console'] as const;
const metricExporterNames = ['otlp', 'prometheus', 'console'] as const;
type TraceExporterName = (typeof traceExporterNames)[number];
type MetricExporterName = (typeof metricExporterNames)[number];
const samplerNames = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;
type SamplerName = (typeof samplerNames)[number];

/** `OTEL_TRACES_SAMPLER` and, for the ratio samplers, `OTEL_TRACES_SAMPLER_ARG` (default 1). */
export interface SamplerSettings {
  name: SamplerName;
  /** Only for `traceidratio` and `parentbased_traceidratio`: the share of new traces kept, 0..1. */
  ratio?: number;
}

/** What `initTelemetry` sets up, decided from the `OTEL_*` variables alone. */
export interface TelemetrySettings {
  /** `OTEL_SDK_DISABLED=true`: no SDK; trace context still passes through unchanged. */
  disabled: boolean;
  serviceName: string;
  serviceVersion?: string;
  /** Empty: spans get ids and propagate but are exported nowhere. */
  traceExporters: TraceExporterName[];
  metricExporters: MetricExporterName[];
  prometheus: { host?: string; port: number };
  /** Default `parentbased_always_on`: a trace started upstream is kept or dropped as upstream decided. */
  sampler: SamplerSettings;
}

/**
 * Shaped as a ReelstreamError (its code and flag, which is what classifiers read) without
 * importing contracts: with that import, the HTTP instrumentation exported no span in the child
 * process of url-secrets.int.spec.ts, so telemetry keeps loading nothing of the platform's own.
 */
export class TelemetryConfigError extends ReelstreamError {
  override readonly name = 'TelemetryConfigError';
  constructor(message: string) {
    super('CONFIGURATION_INVALID', message, { retriable: false });
  }
}

const port = z.coerce.number().int().min(1).max(65_535);

/**
 * Reads the standard variables. Unlike the bare SDK, nothing is exported unless asked for:
 * an exporter list (`OTEL_TRACES_EXPORTER`, `OTEL_METRICS_EXPORTER`) or an OTLP endpoint
 * (`OTEL_EXPORTER_OTLP_ENDPOINT`, or the per-signal one) turns a signal on; `none` turns it off.
 * An unknown exporter name is a configuration error, not a warning lost in the logs.
 */
export function resolveTelemetrySettings(
  service: { serviceName: string; serviceVersion?: string },
  env: Env,
): TelemetrySettings {
  const serviceName = nonEmpty(env['OTEL_SERVICE_NAME']) ?? service.serviceName;
  const otlpEndpoint = nonEmpty(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
  const traceExporters = exporterList(
    'OTEL_TRACES_EXPORTER',
    env['OTEL_TRACES_EXPORTER'],
    traceExporterNames,
    otlpEndpoint ?? nonEmpty(env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT']),
  );
  const metricExporters = exporterList(
    'OTEL_METRICS_EXPORTER',
    env['OTEL_METRICS_EXPORTER'],
    metricExporterNames,
    otlpEndpoint ?? nonEmpty(env['OTEL_EXPORTER_OTLP_METRICS_ENDPOINT']),
  );
  const rawPort = nonEmpty(env['OTEL_EXPORTER_PROMETHEUS_PORT']);
  const parsedPort = port.safeParse(rawPort ?? 9464);
  if (!parsedPort.success) {
    throw new TelemetryConfigError(`OTEL_EXPORTER_PROMETHEUS_PORT must be a port number (1-65535); got "${rawPort}"`);
  }
  const host = nonEmpty(env['OTEL_EXPORTER_PROMETHEUS_HOST']);
  return {
    // The specification: only a case-insensitive "true" disables.
    disabled: env['OTEL_SDK_DISABLED']?.trim().toLowerCase() === 'true',
    serviceName,
    ...(service.serviceVersion !== undefined ? { serviceVersion: service.serviceVersion } : {}),
    traceExporters,
    metricExporters,
    prometheus: { ...(host !== undefined ? { host } : {}), port: parsedPort.data },
    sampler: samplerOf(env),
  };
}

const ratio = z.coerce.number().min(0).max(1);

/**
 * The sampler the variables name. Unlike the bare SDK, which logs an unknown name or a bad ratio
 * and falls back to its default, a wrong value is a configuration error: a sampler silently
 * keeping every trace (or none) is found only when the bill or the gap shows up.
 */
function samplerOf(env: Env): SamplerSettings {
  const raw = nonEmpty(env['OTEL_TRACES_SAMPLER'])?.toLowerCase();
  const name = raw ?? 'parentbased_always_on';
  if (!(samplerNames as readonly string[]).includes(name)) {
    throw new TelemetryConfigError(
      `OTEL_TRACES_SAMPLER: unsupported sampler "${env['OTEL_TRACES_SAMPLER']}"; supported: ${samplerNames.join(', ')}`,
    );
  }
  const sampler = name as SamplerName;
  if (!sampler.endsWith('traceidratio')) return { name: sampler };
  const rawRatio = nonEmpty(env['OTEL_TRACES_SAMPLER_ARG']);
  const parsed = ratio.safeParse(rawRatio ?? 1);
  if (!parsed.success) {
    throw new TelemetryConfigError(`OTEL_TRACES_SAMPLER_ARG must be a ratio from 0 to 1; got "${rawRatio}"`);
  }
  return { name: sampler, ratio: parsed.data };
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function exporterList<Name extends string>(
  variable: string,
  raw: string | undefined,
  known: readonly Name[],
  otlpEndpoint: string | undefined,
): Name[] {
  const names = [
    ...new Set(
      (raw ?? '')
        .split(',')
        .map((name) => name.trim().toLowerCase())
        .filter((name) => name !== ''),
    ),
  ];
  if (names.length === 0) return otlpEndpoint !== undefined ? (['otlp'] as Name[]) : [];
  if (names.includes('none')) {
    if (names.length > 1)
      throw new TelemetryConfigError(`${variable}: "none" cannot be combined with other exporters; got "${raw}"`);
    return [];
  }
  const unknown = names.filter((name) => !(known as readonly string[]).includes(name));
  if (unknown.length > 0) {
    throw new TelemetryConfigError(
      `${variable}: unsupported exporter ${unknown.map((n) => `"${n}"`).join(', ')}; supported: ${known.join(', ')}, none`,
    );
  }
  return names as Name[];
}
