import { describe, expect, it } from '@jest/globals';
import { CatalogError } from '@reelstream/game-domain';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_CATALOG_FILE } from '@reelstream/platform-config';
import { loadCatalogFile } from './catalog-file.js';

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
