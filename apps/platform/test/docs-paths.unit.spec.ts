/**
 * The README and docs/ point a newcomer at files (`libs/…/relay.ts`, `docs/adr/…`): every path
 * they name must exist, so a moved file shows up here instead of as a dead end for the reader.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

const documents = [
  'README.md',
  'k8s/README.md',
  ...readdirSync(join(REPOSITORY_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  'docs/adr',
].flatMap((path) =>
  path === 'docs/adr' ? readdirSync(join(REPOSITORY_ROOT, path)).map((name) => `${path}/${name}`) : [path],
);

/** Repository paths named in a document: in backticks or as link targets, placeholders (`<app>`) and globs left out. */
function pathsIn(document: string): string[] {
  const text = readFileSync(join(REPOSITORY_ROOT, document), 'utf8');
  const base = document.includes('/') ? document.slice(0, document.lastIndexOf('/')) : '';
  const named = [...text.matchAll(/`((?:apps|libs|docs|config|scripts|k8s|bench|docker)\/[^`\s]*)`/g)].map(
    (match) => match[1] ?? '',
  );
  const linked = [...text.matchAll(/\]\(([^)#\s]+\.(?:md|ts|yaml|json))(?:#[^)]*)?\)/g)].map((match) =>
    join(base, match[1] ?? ''),
  );
  return [...named, ...linked].filter((path) => !/[<>*{}$]/.test(path)).map((path) => path.replace(/[.,:;]+$/, ''));
}

describe('the paths the README and docs/ name', () => {
  it('all exist', () => {
    const missing = documents.flatMap((document) =>
      pathsIn(document)
        .filter((path) => !existsSync(join(REPOSITORY_ROOT, path)))
        .map((path) => `${document}: ${path}`),
    );
    expect(documents.length).toBeGreaterThanOrEqual(7);
    expect(missing).toEqual([]);
  });

  it('are found in the documents (the check reads what it should)', () => {
    expect(pathsIn('docs/decisions.md')).toEqual(
      expect.arrayContaining(['libs/bonus/application/src/relay.ts', 'docs/adr/0001-ledger-queries-over-the-bus.md']),
    );
    expect(pathsIn('README.md')).toEqual(
      expect.arrayContaining(['docs/operator-guide.md', 'k8s/README.md', 'scripts/build-apps.ts']),
    );
  });
});
