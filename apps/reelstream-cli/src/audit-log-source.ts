/**
 * The log `audit round` and `reconcile` read: `--source` is the embedded SQLite file (a path or
 * `sqlite:<path>`, default `data/reelstream.db`) or an EventStoreDB URL (`esdb://…`). A missing
 * file is an error, never a new empty store; the commands only read.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { openEventStore } from '@reelstream/backends';
import type { EventStore } from '@reelstream/ports';
import { CliError } from './cli-error.js';

export const DEFAULT_SOURCE = 'data/reelstream.db';

export async function openLogSource(source: string | undefined, cwd: string): Promise<EventStore> {
  const given = source ?? DEFAULT_SOURCE;
  if (/^esdb(\+discover)?:\/\//.test(given)) {
    try {
      return (await openEventStore(given)).store;
    } catch (error) {
      throw new CliError(`cannot open ${given}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(given))
    throw new CliError(`--source ${given}: use a file path, sqlite:<path> or esdb://host:2113`);
  const path = resolve(cwd, given.startsWith('sqlite:') ? given.slice('sqlite:'.length) : given);
  if (!existsSync(path)) throw new CliError(`no data file at ${path} (give --source <file> or an esdb:// URL)`);
  return (await openEventStore(`sqlite:${path}`)).store;
}
