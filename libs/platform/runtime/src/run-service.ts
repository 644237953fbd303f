/**
 * What every `apps/<app>/src/main.ts` repeats, once: telemetry first (its HTTP instrumentation
 * patches only modules loaded after it, so a service's express code is imported inside `start`),
 * the logger, the process identity (worker id, instance id), the back ends, and the life cycle —
 * SIGINT/SIGTERM drain (`/readyz` 503 `draining` for SHUTDOWN_DRAIN_MS while still serving, then stop in reverse start order, close the bus and the store, flush telemetry and logs)
 * and exit 0; a start-up failure is one clear message on stderr and exit 2 (configuration) or 1.
 */
import type { EventEmitter } from 'node:events';
import {
  ConfigError,
  parseEnv as parseEnvWith,
  shutdownEnv,
  type Backends,
  type Env,
} from '@reelstream/platform-config';
import { dirname } from 'node:path';
import { processDataDirs, processDrain, type DrainSignal } from '@reelstream/platform-http';
import { TimeOrderedIdGenerator } from '@reelstream/platform-ids';
import { systemClock, type Clock, type IdGenerator } from '@reelstream/platform-ports';
import {
  createLogRoot,
  createMetrics,
  initTelemetry,
  type Logger,
  type LogRoot,
  type Telemetry,
} from '@reelstream/platform-telemetry';
import type * as z from 'zod';
import { openBackends, reportParkedMessages, type OpenedBackends } from './open-backends.js';
import { embeddedBackendsInACluster } from './embedded-in-a-cluster.js';
import { processIdentityEnv, processIdentityOf, type ProcessIdentity, type ServiceName } from './process-identity.js';
import { RELEASE_VERSION } from './release.js';
import { describeStartupFailure, EXIT_FAILURE } from './startup-failure.js';

export interface ServiceRuntime {
  readonly service: ServiceName;
  /** The environment the process was started with. */
  readonly env: Env;
  /** The service's logger (pino; `LOG_LEVEL`, `LOG_FORMAT`). */
  readonly logger: Logger;
  readonly identity: ProcessIdentity;
  /** The process's one id generator, on its worker id. */
  readonly ids: IdGenerator;
  readonly clock: Clock;
  /** The logger of one of several services in this process: a child of the same pino logger, its own `service`. */
  loggerFor(service: string): Logger;
  /** Parses the environment with an app's schema; errors name the variable (exit code 2). */
  parseEnv<Schema extends z.ZodType>(schema: Schema): z.output<Schema>;
  /** Opens (traced) the event store and bus of `backends`; they are closed after every service stopped. */
  openBackends(backends: Backends): Promise<OpenedBackends>;
  /** Registers what stops a started part; parts stop in reverse order of registration. */
  onStop(name: string, stop: () => Promise<void>): void;
  /**
   * Runs after the `ready` line, e.g. a banner that should be the last thing on the terminal;
   * `print` writes to stdout behind every log line before it.
   */
  onReady(announce: (print: (text: string) => void) => void): void;
}

/** Fields of the `ready` log line (URLs, ports): what a supervisor or a test waits for. */
export type ReadyFields = Record<string, unknown>;

export interface RunServiceOptions {
  /** Default `process.env`. */
  env?: Env;
  /** Default `process.stderr`. */
  stderr?: { write(text: string): unknown };
  /** Default `process.exit`. */
  exit?: (code: number) => void;
  /** Where SIGINT and SIGTERM come from. Default `process`. */
  signals?: Pick<EventEmitter, 'on'>;
  /** Stopping the parts longer than this exits 1 (Kubernetes kills at terminationGracePeriodSeconds). Default 25 s. */
  drainTimeoutMs?: number;
  /** What the health endpoints report draining from. Default the process's (`processDrain`). */
  drain?: DrainSignal;
  /** Default `os.hostname()`. */
  hostname?: string;
}

interface Stop {
  name: string;
  stop: () => Promise<void>;
}

// Long because: start, the signal handlers and shutdown share the process state (starting/running/draining), the stop
// list and telemetry (closures).
export async function runService(
  service: ServiceName,
  start: (runtime: ServiceRuntime) => Promise<ReadyFields>,
  options: RunServiceOptions = {},
): Promise<void> {
  const env = options.env ?? process.env;
  const stderr = options.stderr ?? process.stderr;
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const stops: Stop[] = [];
  const announcements: ((print: (text: string) => void) => void)[] = [];
  const portVariables = new Map<number, string[]>();
  let state: 'starting' | 'running' | 'draining' = 'starting';
  let telemetry: Telemetry | undefined;
  let logs: LogRoot | undefined;
  let logger: Logger | undefined;
  let shutdownDrainMs = 0;
  const drainSignal = options.drain ?? processDrain;

  /** Stops every registered part, newest first; true when all stopped cleanly. */
  const stopAll = async (): Promise<boolean> => {
    let clean = true;
    for (const { name, stop } of stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        clean = false;
        if (logger) logger.error('did not stop cleanly', { part: name, error });
        else stderr.write(`${service}: ${name} did not stop cleanly: ${(error as Error).message}\n`);
      }
    }
    await telemetry?.shutdown();
    return clean;
  };

  const drain = async (signal: string) => {
    const timeoutMs = shutdownDrainMs + (options.drainTimeoutMs ?? 25_000);
    const deadline = setTimeout(() => {
      stderr.write(`${service}: did not stop within ${timeoutMs} ms of ${signal}; exiting\n`);
      exit(EXIT_FAILURE);
    }, timeoutMs);
    deadline.unref();
    // Out of rotation first (readyz 503 while still serving), then close.
    if (shutdownDrainMs > 0) logger?.info('draining', { signal, drainMs: shutdownDrainMs });
    await drainSignal.drainFor(shutdownDrainMs);
    logger?.info('stopping', { signal });
    const clean = await stopAll();
    clearTimeout(deadline);
    logger?.info('stopped', { clean });
    // pino writes asynchronously: the last lines leave before the process does.
    await logs?.flush();
    exit(clean ? 0 : EXIT_FAILURE);
  };

  const onSignal = (signal: string) => {
    if (state === 'draining') {
      stderr.write(`${service}: ${signal} again: exiting without waiting for the drain\n`);
      exit(EXIT_FAILURE);
      return;
    }
    state = 'draining';
    void drain(signal);
  };
  const signals = options.signals ?? process;
  signals.on('SIGINT', () => onSignal('SIGINT'));
  signals.on('SIGTERM', () => onSignal('SIGTERM'));
  if (options.signals === undefined) {
    // The reader of stdout went away (`npm start | head`): stop as a signal would, rather than die of the write error.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'EPIPE') onSignal('EPIPE');
      else throw error;
    });
  }

  try {
    // Before telemetry, which names the instance on every span and series; it loads nothing HTTP would patch.
    const identity = processIdentityOf(service, parseEnvWith(processIdentityEnv, env), options.hostname);
    telemetry = initTelemetry({
      serviceName: service,
      serviceVersion: RELEASE_VERSION,
      serviceInstanceId: identity.instanceId,
      env,
    });
    logs = createLogRoot({ env });
    logger = logs.forService(service);
    shutdownDrainMs = parseEnvWith(shutdownEnv, env).SHUTDOWN_DRAIN_MS;
    const root = logs;
    const runtime: ServiceRuntime = {
      service,
      env,
      logger,
      identity,
      ids: new TimeOrderedIdGenerator(identity.workerId),
      clock: systemClock,
      loggerFor: (name) => root.forService(name),
      parseEnv: (schema) => {
        const parsed = parseEnvWith(schema, env);
        rememberPorts(parsed, portVariables);
        return parsed;
      },
      openBackends: async (backends) => {
        const refused = embeddedBackendsInACluster(backends, env);
        if (refused.length > 0) throw new ConfigError(refused);
        const opened = await openBackends(
          backends,
          identity,
          reportParkedMessages(runtime.logger, createMetrics()),
          runtime.logger,
        );
        stops.push({ name: 'back ends', stop: () => opened.close() });
        await watchDataDirs(backends);
        return opened;
      },
      onStop: (name, stop) => void stops.push({ name, stop }),
      onReady: (announce) => void announcements.push(announce),
    };
    logger.info('starting', {
      instanceId: identity.instanceId,
      workerId: identity.workerId,
      workerIdFrom: identity.workerIdSource,
    });
    const ready = await start(runtime);
    if (state !== 'starting') return;
    state = 'running';
    logger.info('ready', { ...ready, instanceId: identity.instanceId, workerId: identity.workerId });
    // The banner goes to stdout after the lines before it, not in the middle of them.
    for (const announce of announcements) announce((text) => root.print(text));
  } catch (error) {
    // A signal during start-up is already draining what started; the failure it causes is expected.
    if (state !== 'starting') return;
    state = 'draining';
    const failure = describeStartupFailure(service, error, portVariables);
    stderr.write(`${failure.message}\n`);
    await stopAll();
    await logs?.flush();
    exit(failure.exitCode);
  }
}

/** Ports the environment sets, by number, so that "port in use" can name the variable. */
function rememberPorts(parsed: unknown, into: Map<number, string[]>): void {
  if (typeof parsed !== 'object' || parsed === null) return;
  for (const [key, value] of Object.entries(parsed)) {
    if (!key.endsWith('_PORT') || typeof value !== 'number' || value === 0) continue;
    const names = into.get(value) ?? [];
    if (!names.includes(key)) names.push(key);
    into.set(value, names);
  }
}

/** The directories of the embedded back ends' files: `/readyz` fails while one is full or read-only. */
async function watchDataDirs(backends: Backends): Promise<void> {
  const { parseSqliteBusUrl, parseSqliteEventStoreUrl } = await import('@reelstream/platform-backends');
  if (backends.eventStoreUrl.startsWith('sqlite:'))
    processDataDirs.watch(dirname(parseSqliteEventStoreUrl(backends.eventStoreUrl).path));
  if (backends.busUrl.startsWith('sqlite:')) processDataDirs.watch(dirname(parseSqliteBusUrl(backends.busUrl).path));
}
