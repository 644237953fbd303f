/**
 * The `reelstream` commands. Each command parses its own options (node:util parseArgs), so a
 * command added here (helper "audit": `audit round`, `reconcile`, `report --html`) needs no
 * change elsewhere. A command resolves to its exit code: 0 ok, 1 "differences found", 2 bad input.
 */

export interface CliIo {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  readonly env: NodeJS.ProcessEnv;
  /** The working directory relative paths resolve against. */
  readonly cwd: string;
}

export interface CliCommand {
  /** The words that select it: `['replay']`, `['audit', 'round']`. */
  readonly words: readonly string[];
  readonly summary: string;
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

export class CommandRegistry {
  private readonly commands: CliCommand[] = [];

  add(command: CliCommand): this {
    this.commands.push(command);
    return this;
  }

  /** The command whose words start `argv` (longest match), with the rest of the arguments. */
  find(argv: readonly string[]): { command: CliCommand; rest: readonly string[] } | undefined {
    const matches = this.commands
      .filter((command) => command.words.every((word, i) => argv[i] === word))
      .sort((a, b) => b.words.length - a.words.length);
    const command = matches[0];
    return command && { command, rest: argv.slice(command.words.length) };
  }

  help(): string {
    const width = Math.max(...this.commands.map((command) => command.words.join(' ').length));
    const lines = this.commands.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`);
    return [
      'usage: reelstream <command> [options]   (npm run reelstream -- <command> [options])',
      '',
      'commands:',
      ...lines,
      '',
      'reelstream <command> --help prints the options of a command.',
    ].join('\n');
  }
}
