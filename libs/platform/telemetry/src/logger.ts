import { context as contextApi, isSpanContextValid, trace } from '@opentelemetry/api';

const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
type EntryLevel = Exclude<LogLevel, 'silent'>;

const severity: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

type LogFields = Record<string, unknown>;

export interface Logger {
  readonly level: LogLevel;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `bindings` to every entry (fields of one call win over bindings). */
  child(bindings: LogFields): Logger;
  isLevelEnabled(level: EntryLevel): boolean;
}

interface LogDestination {
  write(line: string): unknown;
}

export interface CreateLoggerOptions {
  service: string;
  /** Default: `LOG_LEVEL` from `env`, else `info`. */
  level?: LogLevel;
  /** Where lines go. Default `process.stdout`. */
  destination?: LogDestination;
  env?: Readonly<Record<string, string | undefined>>;
}

/** Shaped as a ReelstreamError without importing contracts, as TelemetryConfigError. */
export class InvalidLogLevelError extends Error {
  override readonly name = 'InvalidLogLevelError';
  readonly code = 'CONFIGURATION_INVALID';
  readonly retriable = false;
  constructor(readonly value: string) {
    super(`LOG_LEVEL must be one of ${logLevels.join(', ')}; got "${value}"`);
  }
}

function parseLogLevel(value: string | undefined, fallback: LogLevel = 'info'): LogLevel {
  if (value === undefined || value.trim() === '') return fallback;
  const normalised = value.trim().toLowerCase();
  if ((logLevels as readonly string[]).includes(normalised)) return normalised as LogLevel;
  throw new InvalidLogLevelError(value);
}

/**
 * A structured logger: one JSON line per entry,
 * `{"time","level","service","msg","trace_id","span_id",...bindings,...fields}`, with the ids of
 * the active span when there is one so logs and traces join. Errors anywhere in the fields are
 * written as {name, message, stack, code?, cause?}; what reaches an HTTP client is the apps'
 * business, never the logger's. An entry below the level costs one comparison.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  const level = options.level ?? parseLogLevel((options.env ?? process.env)['LOG_LEVEL']);
  const destination = options.destination ?? process.stdout;
  const head = `,"service":${JSON.stringify(options.service)}`;
  return new JsonLogger(level, destination, head, '');
}

class JsonLogger implements Logger {
  private readonly threshold: number;

  constructor(
    readonly level: LogLevel,
    private readonly destination: LogDestination,
    private readonly head: string,
    /** Bindings already serialised as `,"k":v,...`: a child pays for them once, not per entry. */
    private readonly bindings: string,
  ) {
    this.threshold = severity[level];
  }

  isLevelEnabled(level: EntryLevel): boolean {
    return severity[level] >= this.threshold;
  }

  debug(msg: string, fields?: LogFields): void {
    if (severity.debug >= this.threshold) this.write('debug', msg, fields);
  }
  info(msg: string, fields?: LogFields): void {
    if (severity.info >= this.threshold) this.write('info', msg, fields);
  }
  warn(msg: string, fields?: LogFields): void {
    if (severity.warn >= this.threshold) this.write('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    if (severity.error >= this.threshold) this.write('error', msg, fields);
  }

  child(bindings: LogFields): Logger {
    return new JsonLogger(this.level, this.destination, this.head, this.bindings + fragment(bindings));
  }

  private write(level: EntryLevel, msg: string, fields: LogFields | undefined): void {
    let line = `{"time":"${new Date().toISOString()}","level":"${level}"${this.head},"msg":${JSON.stringify(msg)}`;
    const spanContext = trace.getSpan(contextApi.active())?.spanContext();
    if (spanContext && isSpanContextValid(spanContext)) {
      line += `,"trace_id":"${spanContext.traceId}","span_id":"${spanContext.spanId}"`;
    }
    line += this.bindings;
    if (fields) line += fragment(fields);
    this.destination.write(line + '}\n');
  }
}

/** `{"a":1,"b":2}` → `,"a":1,"b":2`; never throws (a log call must not break the caller). */
function fragment(fields: LogFields): string {
  let json: string;
  try {
    json = JSON.stringify(fields, replacer);
  } catch (error) {
    json = JSON.stringify({ log_fields_error: error instanceof Error ? error.message : String(error) });
  }
  return json.length > 2 ? ',' + json.slice(1, -1) : '';
}

function replacer(_key: string, value: unknown): unknown {
  if (value instanceof Error) return serialiseError(value, 0);
  if (typeof value === 'bigint') return value.toString();
  return value;
}

interface SerialisedError {
  name: string;
  message: string;
  stack?: string;
  code?: unknown;
  cause?: unknown;
}

function serialiseError(error: Error, depth = 0): SerialisedError {
  const out: SerialisedError = { name: error.name, message: error.message };
  if (error.stack !== undefined) out.stack = error.stack;
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out.code = code;
  if (error.cause !== undefined && depth < 3) {
    out.cause = error.cause instanceof Error ? serialiseError(error.cause, depth + 1) : error.cause;
  }
  return out;
}
