/**
 * What a process says when it cannot start, and with which exit code: 2 for configuration (a
 * variable, the operators, the catalog, the telemetry settings — fix the input and start again),
 * 1 for anything else (a port in use, a back end that does not answer, a bug).
 */
import { ReelstreamError } from '@reelstream/contracts';

export const EXIT_CONFIGURATION = 2;
export const EXIT_FAILURE = 1;

export interface StartupFailure {
  exitCode: typeof EXIT_CONFIGURATION | typeof EXIT_FAILURE;
  /** For stderr: one or more lines, ending without a newline. */
  message: string;
}

interface NodeSystemError {
  code?: unknown;
  port?: unknown;
  syscall?: unknown;
}

/** An error whose message already names the bad variable or key: its code says so, whichever lib threw it. */
export function isConfigurationError(error: unknown): boolean {
  return error instanceof ReelstreamError && error.code === 'CONFIGURATION_INVALID';
}

/**
 * `portVariables` maps a port number to the variables that set it, so that "address in use"
 * says which setting to change.
 */
export function describeStartupFailure(
  service: string,
  error: unknown,
  portVariables: ReadonlyMap<number, readonly string[]> = new Map(),
): StartupFailure {
  if (isConfigurationError(error)) {
    return { exitCode: EXIT_CONFIGURATION, message: `${service} did not start: ${(error as Error).message}` };
  }
  const system = (error ?? {}) as NodeSystemError;
  if ((system.code === 'EADDRINUSE' || system.code === 'EACCES') && typeof system.port === 'number') {
    const variables = portVariables.get(system.port) ?? [];
    const setting = variables.length > 0 ? variables.join(' / ') : 'the port variable';
    const problem =
      system.code === 'EADDRINUSE'
        ? 'is already in use (is another reelstream running?)'
        : 'may not be opened by this user';
    return {
      exitCode: EXIT_FAILURE,
      message: `${service} did not start: port ${system.port}${variables.length > 0 ? ` (${variables.join(', ')})` : ''} ${problem}; set ${setting} to another port, or 0 for any free one`,
    };
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { exitCode: EXIT_FAILURE, message: `${service} did not start: ${detail}` };
}
