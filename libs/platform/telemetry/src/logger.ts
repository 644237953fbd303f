import { context as contextApi, isSpanContextValid, trace } from '@opentelemetry/api';
import { createRequire } from 'node:module';
import { pino, stdSerializers, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';

type PrettyFactory = (options: PrettyOptions) => (line: string) => string;

const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
type EntryLevel = Exclude<LogLevel, 'silent'>;

const logFormats = ['json', 'pretty'] as const;
export type LogFormat = (typeof logFormats)[number];

type LogFields = Record<string, unknown>;

/**
 * The port the services log through: message first, fields second (what the application layers'
 * own log ports, e.g. the wallet's DispatchLog, are shaped like), backed by pino.
 */
export interface Logger {
  readonly level: LogLevel;
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
  /** A logger that adds `bindings` to every entry (fields of one call win over bindings). */
  child(bindings: LogFields): Logger;
  isLevelEnabled(level: EntryLevel): boolean;
  /** The pino logger behind this one, for libraries that take one (pino-http). */
  readonly pino: PinoLogger;
}

/** Where lines go instead of stdout (tests): one call per line, the line ends in `\n`. */
export interface LogDestination {
  write(line: string): unknown;
}

export interface LogRootOptions {
  /** Default: `LOG_LEVEL` from `env`, else `info`. */
  level?: LogLevel;
  /** Default: `LOG_FORMAT` from `env`, else `pretty` when the destination is stdout on a terminal, else `json`. */
  format?: LogFormat;
  /** Where lines go. Default stdout. */
  destination?: LogDestination;
  env?: Readonly<Record<string, string | undefined>>;
}

export interface CreateLoggerOptions extends LogRootOptions {
  service: string;
}

/** The loggers of one process: one pino logger and one destination, a child per service. */
export interface LogRoot {
  readonly level: LogLevel;
  readonly format: LogFormat;
  /** The logger of one service (or component) of this process; every entry carries `service`. */
  forService(service: string): Logger;
  /** Resolves once every line written so far left the process (the last step of a stop sequence). */
  flush(): Promise<void>;
}

/** A LOG_* variable with a value outside its choices; shaped as a ReelstreamError without importing contracts, as TelemetryConfigError. */
class InvalidLogSettingError extends Error {
  readonly code = 'CONFIGURATION_INVALID';
  readonly retriable = false;
  constructor(
    variable: string,
    choices: readonly string[],
    readonly value: string,
  ) {
    super(`${variable} must be one of ${choices.join(', ')}; got "${value}"`);
  }
}

export class InvalidLogLevelError extends InvalidLogSettingError {
  override readonly name = 'InvalidLogLevelError';
  constructor(value: string) {
    super('LOG_LEVEL', logLevels, value);
  }
}

export class InvalidLogFormatError extends InvalidLogSettingError {
  override readonly name = 'InvalidLogFormatError';
  constructor(value: string) {
    super('LOG_FORMAT', logFormats, value);
  }
}

/** LOG_FORMAT=pretty where pino-pretty, a development dependency, is not installed (the image). */
export class PrettyFormatUnavailableError extends Error {
  override readonly name = 'PrettyFormatUnavailableError';
  readonly code = 'CONFIGURATION_INVALID';
  readonly retriable = false;
  constructor() {
    super(
      'LOG_FORMAT=pretty needs pino-pretty, a development dependency this installation leaves out (the image logs JSON lines): set LOG_FORMAT=json',
    );
  }
}

function parseChoice<T extends string>(
  value: string | undefined,
  choices: readonly T[],
  fallback: T,
  refuse: (value: string) => Error,
): T {
  if (value === undefined || value.trim() === '') return fallback;
  const normalised = value.trim().toLowerCase();
  if ((choices as readonly string[]).includes(normalised)) return normalised as T;
  throw refuse(value);
}

/** Secrets by field name, at the top of an entry's fields or under one of PARENTS (`operator.signingSecret`). */
const SECRET_FIELDS = [
  'token',
  'apiToken',
  'sessionToken',
  'adminToken',
  'secret',
  'signingSecret',
  'signingSecrets',
  'password',
  'authorization',
];
/** Named, not `*.`: a path with a wildcard costs every line a walk of its fields (several times slower per line). */
const PARENTS = ['operator', 'operators', 'headers', 'session', 'config', 'body', 'query', 'request'];
const REDACTED_PATHS: readonly string[] = [
  ...SECRET_FIELDS,
  ...PARENTS.flatMap((parent) => SECRET_FIELDS.map((field) => `${parent}.${field}`)),
  'req.headers.authorization',
  'req.headers.cookie',
];

/**
 * A structured logger on pino: one JSON line per entry, `{"level","time","service",
 * "trace_id","span_id",...bindings,...fields,"msg"}`, with the ids of the active span when there
 * is one so logs and traces join; secrets redacted by field name; errors at the top of the fields
 * serialised as {type, message, stack, code?, cause?}. Pretty, colored lines on a terminal.
 */
export function createLogger(options: CreateLoggerOptions): Logger {
  return createLogRoot(options).forService(options.service);
}

export function createLogRoot(options: LogRootOptions = {}): LogRoot {
  const env = options.env ?? process.env;
  const level =
    options.level ?? parseChoice(env['LOG_LEVEL'], logLevels, 'info', (value) => new InvalidLogLevelError(value));
  const toStdout = options.destination === undefined;
  const terminal = toStdout && process.stdout.isTTY === true;
  const format =
    options.format ??
    parseChoice(
      env['LOG_FORMAT'],
      logFormats,
      terminal && prettyFactoryOrUndefined() !== undefined ? 'pretty' : 'json',
      (value) => new InvalidLogFormatError(value),
    );
  const stdout =
    options.destination === undefined && format === 'json' && level !== 'silent' ? asyncStdout() : undefined;
  const stream = stdout ?? destinationOf(options.destination, level, format, terminal);
  const root = pino(
    {
      level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: serialiseTopLevel },
      mixin: activeSpanIds,
      serializers: { err: stdSerializers.errWithCause },
      redact: { paths: [...REDACTED_PATHS], censor: '[REDACTED]' },
    },
    stream,
  );
  return {
    level,
    format,
    forService: (service) => new PinoBackedLogger(root.child({ service }), level),
    flush: () => (stdout === undefined ? Promise.resolve() : drained(stdout)),
  };
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * JSON on stdout: pino's asynchronous destination (the caller never waits for a write system
 * call; lines written while one is in flight go out together in the next). Its exit hook writes
 * what is left when the process exits; `LogRoot.flush` waits for it before.
 */
function asyncStdout(): SonicBoom {
  return pino.destination({ dest: 1, sync: false });
}

/** How long a flush waits for stdout at most: a reader that stopped reading must not hold a shutdown. */
const FLUSH_LIMIT_MS = 5_000;

/**
 * Resolves when no write is in flight. SonicBoom's own flush() answers at once when it holds no
 * buffer of its own (minLength 0, the default), even while a write is still on its way, hence its
 * `_writing` flag; it emits `drain` when that write and the lines queued behind it are out.
 */
function drained(stream: SonicBoom): Promise<void> {
  const state = stream as unknown as { destroyed: boolean; _writing: boolean };
  if (state.destroyed || !state._writing) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(limit);
      stream.off('drain', done).off('error', done).off('close', done);
      resolve();
    };
    const limit = setTimeout(done, FLUSH_LIMIT_MS);
    limit.unref();
    stream.once('drain', done).once('error', done).once('close', done);
  });
}

/**
 * A destination given by the caller (tests), or pretty lines. Pretty is for a person at a
 * terminal: formatted in this thread and written to process.stdout, in order with what else the
 * process prints there (the `npm start` banner).
 */
function destinationOf(
  destination: LogDestination | undefined,
  level: LogLevel,
  format: LogFormat,
  terminal: boolean,
): DestinationStream {
  if (level === 'silent') return { write: () => undefined };
  if (format === 'json') return destination ?? asyncStdout();
  const out = destination ?? process.stdout;
  const prettify = loadPrettyFactory()({
    colorize: terminal,
    translateTime: 'SYS:HH:MM:ss.l',
    messageFormat: '{if service}{service}: {end}{msg}',
    ignore: 'service',
    singleLine: true,
  });
  return { write: (line: string) => out.write(prettify(line)) };
}

/**
 * pino-pretty is a development dependency: the image leaves it out (it runs JSON only), so it is
 * loaded when pretty lines are asked for, and its absence is a configuration error that says so.
 */
function prettyFactoryOrUndefined(): PrettyFactory | undefined {
  try {
    return (createRequire(import.meta.url)('pino-pretty') as { prettyFactory: PrettyFactory }).prettyFactory;
  } catch {
    return undefined;
  }
}

function loadPrettyFactory(): PrettyFactory {
  const factory = prettyFactoryOrUndefined();
  if (factory === undefined) throw new PrettyFormatUnavailableError();
  return factory;
}

/** pino's mixin: the ids of the span active where the entry is written. A new object each time (pino merges into it). */
function activeSpanIds(): Record<string, string> {
  const spanContext = trace.getSpan(contextApi.active())?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}

/**
 * pino serialises errors only under keys it has a serializer for (`err`); call sites also pass
 * them as `error`, `cause`, …. One pass over the top-level fields (no deeper: a line costs no
 * walk of its fields) turns any other Error into the same {type, message, stack, code?, cause?}
 * and a BigInt (money) into its exact decimal string.
 */
function serialiseTopLevel(fields: LogFields): LogFields {
  let out = fields;
  for (const key in fields) {
    const value = fields[key];
    if ((!(value instanceof Error) || key === 'err') && typeof value !== 'bigint') continue;
    // Copied before the first change: the object may be the caller's.
    if (out === fields) out = { ...fields };
    out[key] = value instanceof Error ? stdSerializers.errWithCause(value) : String(value);
  }
  return out;
}

class PinoBackedLogger implements Logger {
  constructor(
    readonly pino: PinoLogger,
    readonly level: LogLevel,
  ) {}

  isLevelEnabled(level: EntryLevel): boolean {
    return this.pino.isLevelEnabled(level);
  }

  debug(msg: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.debug(msg);
    else this.pino.debug(fields, msg);
  }
  info(msg: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.info(msg);
    else this.pino.info(fields, msg);
  }
  warn(msg: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.warn(msg);
    else this.pino.warn(fields, msg);
  }
  error(msg: string, fields?: LogFields): void {
    if (fields === undefined) this.pino.error(msg);
    else this.pino.error(fields, msg);
  }

  child(bindings: LogFields): Logger {
    return new PinoBackedLogger(this.pino.child(bindings), this.level);
  }
}
