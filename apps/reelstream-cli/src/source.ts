/**
 * Where the CLI reads the log: `--source` (a `sqlite:` URL, a path to the data file, a
 * `postgres://` or an `esdb://` URL), else EVENT_STORE_URL, else the platform's default `sqlite:$DATA_DIR/reelstream.db`.
 * A data file must exist and is opened read-only: the CLI creates nothing beside it, switches nothing in
 * it, and refuses a file that is not an event store ("not a reelstream data file", exit 2).
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { openEventStore, parseSqliteEventStoreUrl } from '@reelstream/platform-backends';
import { NotAnEventStoreFileError, openReadOnlyEventStore } from '@reelstream/platform-eventstore-sqlite';
import type { EventStore } from '@reelstream/platform-ports';
import { CliError } from './cli-error.js';
import type { CliIo } from './command-registry.js';

export interface OpenedSource {
  readonly url: string;
  readonly store: EventStore;
}

export function sourceUrlOf(option: string | undefined, io: CliIo): string {
  const given = option ?? io.env['EVENT_STORE_URL'];
  if (given !== undefined && given !== '') {
    if (/^[a-z][a-z0-9+.-]*:/i.test(given) && !/^[a-z]:[\\/]/i.test(given)) return given;
    return `sqlite:${resolve(io.cwd, given)}`;
  }
  const dataDir = io.env['DATA_DIR'] || './data';
  return `sqlite:${resolve(io.cwd, dataDir, 'reelstream.db')}`;
}

export async function openSource(url: string): Promise<OpenedSource> {
  if (url.startsWith('sqlite:')) {
    let path: string;
    try {
      path = parseSqliteEventStoreUrl(url).path;
    } catch (error) {
      throw new CliError(`bad --source ${url}: ${(error as Error).message}`);
    }
    if (!existsSync(path)) throw new CliError(`no data file at ${path} (give --source <file or URL>)`);
    if (!statSync(path).isFile()) throw new CliError(`${path} is not a file`);
    try {
      return { url, store: openReadOnlyEventStore(path) };
    } catch (error) {
      if (error instanceof NotAnEventStoreFileError) throw new CliError(error.message);
      throw new CliError(`cannot open ${url}: ${(error as Error).message}`);
    }
  } else if (!/^(esdb(\+discover)?|postgres(ql)?):\/\//.test(url)) {
    throw new CliError(
      `bad --source ${url}: use a data file path, sqlite:<path>, postgres://user@host:5432/database or esdb://host:2113?tls=false`,
    );
  }
  try {
    return { url, store: (await openEventStore(url)).store };
  } catch (error) {
    throw new CliError(`cannot open ${url}: ${(error as Error).message}`);
  }
}
