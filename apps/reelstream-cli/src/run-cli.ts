/**
 * Dispatches argv to its command; every error a user can cause ends as one line and exit code 2,
 * an event the contracts refuse (a hand-edited or damaged log) too. Exit code 1 means only
 * "differences found"; an error nobody foresaw is one line and exit code 3 (REELSTREAM_DEBUG=1
 * prints its stack).
 */
import { CliError } from './cli-error.js';
import type { CliIo } from './command-registry.js';
import { buildRegistry } from './commands.js';

/** Errors of a log event that cannot be read: the contracts refuse it, or its stored JSON is broken. */
const UNREADABLE_LOG = new Set(['UnreadableEventError', 'CorruptEventError']);

/** A usage text keeps its lines; an error's message (a schema's issues) is folded to one. */
function oneLine(message: string): string {
  return message.includes('\nusage:') ? message : message.replace(/\s*\n\s*/g, ' ');
}

export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const registry = buildRegistry();
  const write = (stream: NodeJS.WritableStream, text: string) => void stream.write(`${text}\n`);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') {
    write(argv.length === 0 ? io.stderr : io.stdout, registry.help());
    return argv.length === 0 ? 2 : 0;
  }
  const found = registry.find(argv);
  if (!found) {
    write(io.stderr, `reelstream: unknown command "${argv.join(' ')}"\n\n${registry.help()}`);
    return 2;
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    write(io.stdout, found.command.usage);
    return 0;
  }
  try {
    return await found.command.run(found.rest, io);
  } catch (error) {
    const prefix = `reelstream ${found.command.words.join(' ')}`;
    if (error instanceof CliError) {
      write(io.stderr, `${prefix}: ${oneLine(error.message)}`);
      return error.exitCode;
    }
    if (error instanceof Error && UNREADABLE_LOG.has(error.name)) {
      write(io.stderr, `${prefix}: the log is not what the platform wrote: ${oneLine(error.message)}`);
      return 2;
    }
    write(io.stderr, `${prefix}: unexpected error: ${oneLine(error instanceof Error ? error.message : String(error))}`);
    if (io.env['REELSTREAM_DEBUG'] === '1' && error instanceof Error && error.stack) write(io.stderr, error.stack);
    return 3;
  }
}
