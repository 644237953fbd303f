/**
 * `npm run sqlite:backup -- <source.db> <backup.db>`: an online backup of an embedded back end's
 * SQLite file while the services run (docs/runbooks/backup-and-restore.md). Exit 0 when the copy
 * passed its integrity check, 1 when it did not, 2 on bad arguments or an unreadable source.
 */
import { existsSync } from 'node:fs';
import { backupSqlite } from '@reelstream/platform-eventstore-sqlite';

const USAGE = 'usage: npm run sqlite:backup -- <source.db> <backup.db>  (the backup file must not exist yet)';
const [source, destination, ...rest] = process.argv.slice(2);
if (!source || !destination || rest.length > 0) {
  console.error(USAGE);
  process.exitCode = 2;
} else if (existsSync(destination)) {
  console.error(`sqlite:backup: ${destination} exists; give a new file name\n${USAGE}`);
  process.exitCode = 2;
} else {
  try {
    const { pages, integrity } = await backupSqlite(source, destination);
    console.log(`${source} → ${destination}: ${pages} pages, integrity ${integrity}`);
    process.exitCode = integrity === 'ok' ? 0 : 1;
  } catch (error) {
    console.error(`sqlite:backup: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  }
}
