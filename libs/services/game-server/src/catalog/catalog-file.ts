import { readFileSync } from 'node:fs';
import { CatalogError, parseCatalog, type Catalog } from '@reelstream/game-domain';
import { DEFAULT_CATALOG_FILE } from '../config/game-server-env.js';

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
