import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteEventStore, type SqliteEventStoreOptions } from '../src/index.js';

/** A temp directory for one test file, and the stores opened in it, all closed and removed at the end. */
export class TempStores {
  readonly dir = mkdtempSync(join(tmpdir(), 'reelstream-es-sqlite-'));
  private readonly opened: SqliteEventStore[] = [];
  private files = 0;

  path(name: string): string {
    return join(this.dir, name);
  }

  /** Opens `name`, or a new file of its own when no name is given. */
  open(options: SqliteEventStoreOptions = {}, name = `events-${++this.files}.db`): SqliteEventStore {
    const store = SqliteEventStore.open(this.path(name), options);
    this.opened.push(store);
    return store;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.opened.splice(0).map((store) => store.close()));
  }

  async dispose(): Promise<void> {
    await this.closeAll();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export const event = (n = 0) => ({ type: 'Happened', data: { n } });
