/**
 * The README and docs/ point a newcomer at files (`libs/…/relay.ts`, `docs/adr/…`): every path
 * they name must exist, so a moved file shows up here instead of as a dead end for the reader.
 * Their markdown links too: a relative link names a file of the repository and its `#anchor` a
 * heading (or `<a id>`) of that file; and none sends the reader to a document the repository
 * does not hold (the planning repository's DESIGN.md, STYLE.md or spec).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
  'docs/runbooks',
].flatMap((path) =>
  path === 'docs/adr' || path === 'docs/runbooks'
    ? readdirSync(join(REPOSITORY_ROOT, path)).map((name) => `${path}/${name}`)
    : [path],
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

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function slugOf(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file: its headings' slugs (repeats numbered as GitHub does) and `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const outsideCode = markdown.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading = ''] of outsideCode.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const slug = slugOf(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  for (const [, id = ''] of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** Every relative markdown link of a document that does not resolve: a missing file or anchor. */
function brokenLinks(document: string, read: (path: string) => string | undefined): string[] {
  const text = read(document) ?? '';
  const base = document.includes('/') ? document.slice(0, document.lastIndexOf('/')) : '';
  const broken: string[] = [];
  for (const [, target = ''] of text.replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const [file = '', anchor] = target.split('#', 2);
    const path = file === '' ? document : join(base, file);
    const content = read(path);
    if (content === undefined) broken.push(`${document}: ${target} (no such file)`);
    else if (anchor !== undefined && path.endsWith('.md') && !anchorsOf(content).has(anchor))
      broken.push(`${document}: ${target} (no such anchor)`);
  }
  return broken;
}

const readRepositoryFile = (path: string): string | undefined => {
  const absolute = join(REPOSITORY_ROOT, path);
  if (!existsSync(absolute)) return undefined;
  return statSync(absolute).isDirectory() ? '' : readFileSync(absolute, 'utf8');
};

describe('the markdown links of the README and docs/', () => {
  it('resolve: every relative link names a file of the repository and an anchor of it', () => {
    expect(documents.flatMap((document) => brokenLinks(document, readRepositoryFile))).toEqual([]);
  });

  it('name no document outside the repository', () => {
    const outside = documents.flatMap((document) =>
      (readRepositoryFile(document) ?? '')
        .split('\n')
        .map((line, index) => ({ line, at: `${document}:${index + 1}` }))
        .filter(({ line }) => /planning repositor|DESIGN(\.md)?\b|STYLE\.md|bonus-wallet-spec/.test(line))
        .map(({ at }) => at),
    );
    expect(outside).toEqual([]);
  });

  it('are checked as they should be: a missing file or anchor is reported, a present one is not', () => {
    const files: Record<string, string> = {
      'docs/a.md': '# Title\n\n## D7\n\n## Why: the `x` rule\n\n## Why: the x rule\n\n<a id="here"></a>\n',
      'docs/b.md': [
        '[ok](a.md#d7) [ok](a.md#why-the-x-rule-1) [ok](#d9) [ok](a.md#here) [ok](https://example.org/x)',
        '[bad](a.md#d8) [bad](missing.md) [bad](#nowhere) `[in code](nowhere.md)`',
        '## D9',
      ].join('\n'),
    };
    expect(brokenLinks('docs/b.md', (path) => files[path])).toEqual([
      'docs/b.md: a.md#d8 (no such anchor)',
      'docs/b.md: missing.md (no such file)',
      'docs/b.md: #nowhere (no such anchor)',
    ]);
  });
});

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
