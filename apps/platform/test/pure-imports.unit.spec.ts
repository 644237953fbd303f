/**
 * The pure libraries (money, contracts, domains) may hash — node:crypto's createHash,
 * createHmac and timingSafeEqual — and import nothing else of Node. Nx's boundary rule does not
 * see built-in modules, so eslint.config.mjs names them; this runs that block of the real
 * configuration over sample sources, so a rule that stops matching fails here, not in review.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from '@jest/globals';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { REPOSITORY_ROOT } from './support/app-process.js';

type FlatConfig = Linter.Config;
const { default: config } = (await import(pathToFileURL(join(REPOSITORY_ROOT, 'eslint.config.mjs')).href)) as {
  default: FlatConfig[];
};
const pureBlocks = config.filter(
  (block) => block.rules?.['no-restricted-imports'] && block.files?.includes('libs/money/src/**/*.ts'),
);

function problemsOf(source: string, file: string): string[] {
  const linter = new Linter({ configType: 'flat', cwd: REPOSITORY_ROOT });
  const parser: FlatConfig = { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser as Linter.Parser } };
  return linter
    .verify(source, [parser, ...pureBlocks], join(REPOSITORY_ROOT, file))
    .map((message) => `${message.line}:${message.ruleId ?? message.message}`);
}

describe('what a pure library may import of Node (the lint)', () => {
  it('is one block of eslint.config.mjs', () => expect(pureBlocks).toHaveLength(1));

  it.each(['libs/wallet/domain/src/x.ts', 'libs/contracts/src/x.ts', 'libs/money/src/x.ts'])(
    'lets hashing into %s, and the library’s own modules named like built-ins',
    (file) => {
      const source = [
        "import { createHash, createHmac, timingSafeEqual } from 'node:crypto';",
        "import { streams } from './events/streams.js';",
        "import * as z from 'zod';",
        'export const x = [createHash, createHmac, timingSafeEqual, streams, z];',
      ].join('\n');
      expect(problemsOf(source, file)).toEqual([]);
    },
  );

  it('refuses randomness, I/O, built-ins by their bare names and the global crypto', () => {
    const source = [
      "import { randomUUID } from 'node:crypto';",
      "import { readFileSync } from 'node:fs';",
      "import { join } from 'path';",
      "import { webcrypto } from 'crypto';",
      "import { readFile } from 'fs/promises';",
      'export const x = [randomUUID, readFileSync, join, webcrypto, readFile, crypto.randomUUID()];',
    ].join('\n');
    expect(problemsOf(source, 'libs/bonus/domain/src/x.ts')).toEqual([
      '1:no-restricted-imports',
      '2:no-restricted-imports',
      '3:no-restricted-imports',
      '4:no-restricted-imports',
      '5:no-restricted-imports',
      '6:no-restricted-globals',
    ]);
  });

  it('leaves adapters and tests alone', () => {
    const source = "import { randomUUID } from 'node:crypto';\nexport const x = randomUUID;";
    expect(problemsOf(source, 'libs/wallet/adapters/src/x.ts')).toEqual([]);
    expect(problemsOf(source, 'libs/wallet/domain/src/x.unit.spec.ts')).toEqual([]);
  });
});
