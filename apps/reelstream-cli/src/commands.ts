/** Every `reelstream` command, in help order. A new command is one `add` here. */
import { CommandRegistry } from './command-registry.js';
import { replayCommand } from './replay-command.js';

export function buildRegistry(): CommandRegistry {
  return new CommandRegistry().add(replayCommand);
}
