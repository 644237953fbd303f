import { context as contextApi, isSpanContextValid, trace } from '@opentelemetry/api';
import { createRequire } from 'node:module';
import { pino, stdSerializers, type DestinationStream, type Logger as PinoLogger } from 'pino';
import type { PrettyOptions } from 'pino-pretty';
import { ReelstreamError } from '@reelstream/contracts';
import { drained, type DrainableStream } from './stdout-drain.js';

type PrettyFactory = (options: PrettyOptions) => (line: string) => string;

const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];
type EntryLevel = Exclude<LogLevel, 'silent'>;

const logFormats = ['json', 'pretty'] as const;
type LogFormat = (typeof logFormats)[number];

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
interface LogDestination {
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
  /** The clock of the repeat limit (tests). Default `Date.now`. */
  now?: () => number;
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
  /**
   * Writes text to stdout behind every log line written before it (a banner after `ready`):
   * through the asynchronous destination when the lines go there, so no wait is needed.
   */
  print(text: string): void;
}

/** A LOG_* variable with a value outside its choices; shaped as a ReelstreamError without importing contracts, as TelemetryConfigError. */
class InvalidLogSettingError extends ReelstreamError {
  constructor(
    variable: string,
    choices: readonly string[],
    readonly value: string,
  ) {
    super('CONFIGURATION_INVALID', `${variable} must be one of ${choices.join(', ')}; got "${value}"`, {
      retriable: false,
    });
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
class PrettyFormatUnavailableError extends ReelstreamError {
  override readonly name = 'PrettyFormatUnavailableError';
  constructor() {
    super(
      'CONFIGURATION_INVALID',
      'LOG_FORMAT=pretty needs pino-pretty, a development dependency this installation leaves out (the image logs JSON lines): set LOG_FORMAT=json',
      { retriable: false },
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
  const repeats = new RepeatLimit(repeatLimitOf(env), options.now ?? Date.now);
  return {
    level,
    format,
    forService: (service) => new PinoBackedLogger(root.child({ service }), level, repeats, service),
    flush: () => (stdout === undefined ? Promise.resolve() : drained(stdout as unknown as DrainableStream)),
    print: (text) => void (stdout ?? process.stdout).write(text),
  };
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * JSON on stdout: pino's asynchronous destination (the caller never waits for a write system
 * call; lines written while one is in flight go out together in the next). Its exit hook writes
 * what is left when the process exits; `LogRoot.flush` waits for it before. The root
 * package.json overrides pino's sonic-boom 4 with 5: when a full pipe had a write waiting to be
 * retried at exit, 4's synchronous flush skipped that chunk (about 16 KiB of lines lost).
 */
function asyncStdout(): SonicBoom {
  return pino.destination({ dest: 1, sync: false });
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

/** At most `lines` identical warnings or errors per `windowMs`; `lines` 0 turns the limit off. */
interface RepeatLimitSettings {
  lines: number;
  windowMs: number;
}

/** `LOG_REPEAT_LIMIT` (default 10) identical warn/error lines per `LOG_REPEAT_WINDOW_MS` (default 10 s). */
function repeatLimitOf(env: Readonly<Record<string, string | undefined>>): RepeatLimitSettings {
  const number = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw.trim() === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) throw new InvalidLogRepeatSettingError(name, raw);
    return value;
  };
  return { lines: number('LOG_REPEAT_LIMIT', 10), windowMs: number('LOG_REPEAT_WINDOW_MS', 10_000) };
}

class InvalidLogRepeatSettingError extends ReelstreamError {
  override readonly name = 'InvalidLogRepeatSettingError';
  constructor(variable: string, value: string) {
    super('CONFIGURATION_INVALID', `${variable} must be a whole number of 0 or more; got "${value}"`, {
      retriable: false,
    });
  }
}

/** Most keys kept at once: a flood of distinct messages must not grow the map without end. */
const MAX_REPEAT_KEYS = 1_000;

/**
 * Identical warnings and errors (same service, level, message and error message) are written at most
 * `lines` times per window: a wallet that fails every callback, or a broker that is down, would
 * otherwise write thousands of the same line a second and drown everything else (and fill the
 * node's disk). The first line written after some were held back says how many
 * (`repeatsSuppressed`), so no count is lost.
 */
class RepeatLimit {
  private readonly seen = new Map<string, { windowStart: number; written: number; suppressed: number }>();

  constructor(
    private readonly settings: RepeatLimitSettings,
    private readonly now: () => number,
  ) {}

  /** Undefined to hold the line back; else the number of identical lines held back before it (0 for none). */
  admit(key: string): number | undefined {
    if (this.settings.lines === 0) return 0;
    const now = this.now();
    let entry = this.seen.get(key);
    if (entry === undefined || now - entry.windowStart >= this.settings.windowMs) {
      const suppressed = entry?.suppressed ?? 0;
      this.seen.delete(key);
      if (this.seen.size >= MAX_REPEAT_KEYS) this.seen.delete(this.seen.keys().next().value as string);
      entry = { windowStart: now, written: 1, suppressed: 0 };
      this.seen.set(key, entry);
      return suppressed;
    }
    if (entry.written < this.settings.lines) {
      entry.written++;
      const suppressed = entry.suppressed;
      entry.suppressed = 0;
      return suppressed;
    }
    entry.suppressed++;
    return undefined;
  }
}

/** Fields that tell two failures apart: one operator's flood must never hold back another operator's lines. */
const DISTINGUISHING_FIELDS = ['operatorId', 'operator', 'topic', 'groupId', 'command', 'code'];

/** What makes two lines "the same" beyond their message: the error's message and the distinguishing fields. */
function repeatKeyOf(fields: LogFields | undefined): string {
  if (fields === undefined) return '';
  const error = fields['error'] ?? fields['err'] ?? fields['cause'];
  const parts = [error instanceof Error ? error.message : typeof error === 'string' ? error : ''];
  for (const name of DISTINGUISHING_FIELDS)
    if (fields[name] !== undefined) parts.push(`${name}=${String(fields[name])}`);
  return parts.join('\u0000');
}

class PinoBackedLogger implements Logger {
  constructor(
    readonly pino: PinoLogger,
    readonly level: LogLevel,
    private readonly repeats: RepeatLimit,
    private readonly key: string,
  ) {}

  /** The fields to write (with `repeatsSuppressed` when some were held back), or undefined to hold the line back. */
  private limited(level: 'warn' | 'error', msg: string, fields: LogFields | undefined): LogFields | undefined | false {
    const suppressed = this.repeats.admit(`${this.key}\u0000${level}\u0000${msg}\u0000${repeatKeyOf(fields)}`);
    if (suppressed === undefined) return false;
    return suppressed > 0 ? { ...fields, repeatsSuppressed: suppressed } : fields;
  }

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
    this.writeLimited('warn', msg, fields);
  }
  error(msg: string, fields?: LogFields): void {
    this.writeLimited('error', msg, fields);
  }

  /** A warning or an error, unless it is a repeat held back. */
  private writeLimited(level: 'warn' | 'error', msg: string, fields: LogFields | undefined): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const admitted = this.limited(level, msg, fields);
    if (admitted === false) return;
    if (admitted === undefined) this.pino[level](msg);
    else this.pino[level](admitted, msg);
  }

  child(bindings: LogFields): Logger {
    return new PinoBackedLogger(
      this.pino.child(bindings),
      this.level,
      this.repeats,
      `${this.key}\u0000${repeatKeyOf(bindings)}`,
    );
  }
}
