/**
 * The repository explains itself: a reader of any file it holds (code, comment, document, script)
 * is never sent to a tracker's issue number they cannot open, nor to a markdown file the
 * repository does not hold. docs-paths.unit.spec.ts checks the documents' paths and anchors in
 * detail; this checks every text file for the two dead ends.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

const SKIPPED_FOLDERS = new Set([
  'node_modules',
  '.git',
  'dist',
  'data',
  '.nx',
  'coverage',
  'reports',
  'tmp',
  '.stryker-tmp',
]);
const TEXT_FILE = /\.(?:ts|mts|cts|js|mjs|cjs|json|jsonc|md|ya?ml|sh|html|css|txt)$|^(?:Dockerfile|run)$/;
/** Files whose own subject is these dead ends: their examples are fixtures, not pointers. */
const FIXTURE_FILES = new Set([
  'apps/platform/test/docs-paths.unit.spec.ts',
  'apps/platform/test/self-explaining.unit.spec.ts',
]);

function textFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : textFiles(path);
    if (entry.name === 'package-lock.json' || !TEXT_FILE.test(entry.name)) return [];
    return [relative(REPOSITORY_ROOT, path)];
  });
}

const files = textFiles(REPOSITORY_ROOT).filter((file) => !FIXTURE_FILES.has(file));
const basenames = new Set(files.map((file) => basename(file)));

/** Mentions of a tracker's numbers: the word "issue" or "issues", then a number (with an optional "#" or a ".N" part). */
export function issueMentions(text: string): string[] {
  return [...text.matchAll(/\bissues? ?#?\d+(?:\.\d+)?/gi)].map((match) => match[0]);
}

/** Markdown files named in a text that resolve neither from the root, nor from the file's folder, nor as a name the repository holds. */
export function missingMarkdown(file: string, text: string): string[] {
  const named = [...text.matchAll(/(?<![\w/.:-])([\w.-]+(?:\/[\w.-]+)*\.md)\b/g)].map((match) => match[1] ?? '');
  return named.filter((name) => {
    if (name.includes('/'))
      return !existsSync(join(REPOSITORY_ROOT, name)) && !existsSync(join(REPOSITORY_ROOT, dirname(file), name));
    return !basenames.has(name);
  });
}

describe('the repository explains itself', () => {
  it('reads a good number of files (the walk finds the code, the docs and the scripts)', () => {
    expect(files.length).toBeGreaterThan(300);
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/decisions.md', '.ci/run']));
  });

  it('the checks find what they look for', () => {
    expect(issueMentions('moved (issue 12) and Issue 10.7: a spin; issues 3')).toEqual([
      'issue 12',
      'Issue 10.7',
      'issues 3',
    ]);
    expect(issueMentions('tissue 12, issued 3, 12 issues')).toEqual([]);
    expect(missingMarkdown('libs/x/src/a.ts', 'see services.md and docs/decisions.md and README.md')).toEqual([
      'services.md',
    ]);
    expect(missingMarkdown('docs/adr/x.md', 'see (0005-leases-and-fencing.md) and docs/nowhere.md')).toEqual([
      'docs/nowhere.md',
    ]);
  });

  it('no file names an issue number', () => {
    const found = files.flatMap((file) => {
      const text = readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
      return issueMentions(text).map((mention) => `${file}: ${mention}`);
    });
    expect(found).toEqual([]);
  });

  it('no file names a markdown file the repository does not hold', () => {
    const found = files.flatMap((file) => {
      const text = readFileSync(join(REPOSITORY_ROOT, file), 'utf8');
      return missingMarkdown(file, text).map((name) => `${file}: ${name}`);
    });
    expect(found).toEqual([]);
  });
});
