/** Dispatches argv to its command; every error a user can cause ends as one line and exit code 2. */
import { CliError } from './cli-error.js';
import type { CliIo } from './command-registry.js';
import { buildRegistry } from './commands.js';

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
    if (error instanceof CliError) {
      write(io.stderr, `reelstream ${found.command.words.join(' ')}: ${error.message}`);
      return error.exitCode;
    }
    throw error;
  }
}
