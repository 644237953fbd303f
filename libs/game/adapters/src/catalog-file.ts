/**
 * The game catalog file every service that needs the catalog reads (the gateway, the
 * game-server, the bonus-ledger): one loader, so a bad file fails the same way everywhere.
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_CATALOG_FILE } from '@reelstream/platform-config';
import type { Catalog } from '@reelstream/contracts';
import { CatalogError, parseCatalog } from '@reelstream/game-domain';

/** Reads and checks a catalog file; a missing, unreadable or invalid file is a `CatalogError` naming it. */
export function loadCatalogFile(path: string = DEFAULT_CATALOG_FILE): Catalog {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CatalogError([`cannot read ${path}: ${(error as Error).message}`]);
  }
  try {
    return parseCatalog(json);
  } catch (error) {
    if (error instanceof CatalogError) throw new CatalogError(error.problems.map((problem) => `${path}: ${problem}`));
    throw error;
  }
}
