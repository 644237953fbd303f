/**
 * The game catalog file every service that needs the catalog reads (the gateway, the
 * game-server, the bonus-ledger): one loader, so a bad file fails the same way everywhere.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CatalogError, parseCatalog, type Catalog } from '@reelstream/game-domain';
import * as z from 'zod';

/** The repository's `config/catalog.json`, found from this file so any working directory works. */
export const DEFAULT_CATALOG_FILE = fileURLToPath(new URL('../../../../config/catalog.json', import.meta.url));

/** `CATALOG_FILE` of a service's environment: the path of the catalog, the repository's by default. */
export const catalogFile = () => z.string().min(1).default(DEFAULT_CATALOG_FILE);

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
