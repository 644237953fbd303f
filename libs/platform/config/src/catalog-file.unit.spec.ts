import { describe, expect, it } from '@jest/globals';
import { CatalogError } from '@reelstream/game-domain';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { catalogFile, DEFAULT_CATALOG_FILE, loadCatalogFile } from './catalog-file.js';
import { parseEnv } from './env.js';

describe('loadCatalogFile', () => {
  it("reads the repository's config/catalog.json from any working directory", () => {
    expect(DEFAULT_CATALOG_FILE).toMatch(/\/config\/catalog\.json$/);
    expect(loadCatalogFile().providers.length).toBeGreaterThan(0);
  });

  it('names the file when it is missing or invalid', () => {
    const dir = mkdtempSync(join(tmpdir(), 'catalog-'));
    try {
      expect(() => loadCatalogFile(join(dir, 'absent.json'))).toThrow(CatalogError);
      const invalid = join(dir, 'invalid.json');
      writeFileSync(invalid, JSON.stringify({ providers: [], games: [] }));
      expect(() => loadCatalogFile(invalid)).toThrow(invalid);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('CATALOG_FILE', () => {
  const env = z.object({ CATALOG_FILE: catalogFile() });

  it("is the repository's catalog unless set", () => {
    expect(parseEnv(env, {}).CATALOG_FILE).toBe(DEFAULT_CATALOG_FILE);
    expect(parseEnv(env, { CATALOG_FILE: '/etc/reelstream/catalog.json' }).CATALOG_FILE).toBe(
      '/etc/reelstream/catalog.json',
    );
  });
});
