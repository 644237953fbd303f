/**
 * The dependency diagrams of docs/architecture.md ("Layout: contexts and layers") against the code:
 * the edges are read from the imports of `@reelstream/*` packages in every workspace's production
 * sources (`src/`, spec files left out), the workspaces and their package names from the root
 * package.json. Each diagram marked `%% dependencies: <kind>` must list exactly the edges the code
 * has at its level — bounded contexts, or apps to contexts — and the table of imports across
 * contexts exactly the library edges it covers. An edge drawn that the code lacks, or one the code
 * has and the document misses, fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

/** Folder → the folders of the workspaces its production sources import. */
type Imports = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The `@reelstream/<name>` packages a source imports (`from`, `import(…)`, a bare `import`); subpaths count as their package. */
export function importedPackages(source: string): string[] {
  return [
    ...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](@reelstream\/[\w-]+)(?:\/[^'"]*)?['"]/g),
  ].map((match) => match[1] ?? '');
}

function workspaceImports(): Imports {
  const { workspaces } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as {
    workspaces: string[];
  };
  const folderOf = new Map(
    workspaces.map((folder) => {
      const { name } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, folder, 'package.json'), 'utf8')) as {
        name: string;
      };
      return [name, folder];
    }),
  );
  const imports: Imports = new Map();
  for (const folder of workspaces) {
    const targets = new Set<string>();
    for (const file of sourceFiles(join(REPOSITORY_ROOT, folder, 'src'))) {
      for (const name of importedPackages(readFileSync(file, 'utf8'))) {
        const target = folderOf.get(name);
        if (target === undefined) throw new Error(`${file} imports ${name}, which no workspace is`);
        if (target !== folder) targets.add(target);
      }
    }
    imports.set(folder, targets);
  }
  return imports;
}

/** A workspace's bounded context: `libs/bonus/domain` → `bonus`, `libs/money` → `money`; an app is its own. */
export function contextOf(folder: string): string {
  const [top, name = ''] = folder.split('/');
  return top === 'apps' ? folder : name;
}

const edge = (from: string, to: string): string => `${from} --> ${to}`;

function contextEdges(imports: Imports, sources: (folder: string) => boolean): string[] {
  const edges = new Set<string>();
  for (const [folder, targets] of imports) {
    if (!sources(folder)) continue;
    for (const target of targets)
      if (contextOf(folder) !== contextOf(target)) edges.add(edge(contextOf(folder), contextOf(target)));
  }
  return [...edges].sort();
}

/** Library edges across contexts, leaving out those into the contexts nearly every library uses. */
const SHARED_CONTEXTS = new Set(['platform', 'contracts', 'money', 'errors']);
function crossContextImports(imports: Imports): string[] {
  const edges: string[] = [];
  for (const [folder, targets] of imports) {
    if (!folder.startsWith('libs/')) continue;
    for (const target of targets)
      if (contextOf(folder) !== contextOf(target) && !SHARED_CONTEXTS.has(contextOf(target)))
        edges.push(edge(folder, target));
  }
  return edges.sort();
}

/**
 * The edges of the mermaid block marked `%% dependencies: <kind>`. A node is declared on a line of
 * its own, `id["label"]`, and stands for the label up to its first colon; an edge line is
 * `a & b --> c & d`. Any other line with an arrow, or an id never declared, is an error: the check
 * must not pass by reading less than the diagram draws.
 */
export function diagramEdges(markdown: string, kind: string): string[] {
  const blocks = [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```/gm)].map((match) => match[1] ?? '');
  const marked = blocks.filter((block) => new RegExp(`^\\s*%% dependencies: ${kind}\\b`, 'm').test(block));
  if (marked.length !== 1) throw new Error(`${marked.length} mermaid blocks marked "%% dependencies: ${kind}"`);
  const lines = (marked[0] ?? '').split('\n').map((line) => line.trim());
  const names = new Map<string, string>();
  for (const line of lines) {
    const node = /^(\w+)\["([^"]+)"\]$/.exec(line);
    if (node) names.set(node[1] ?? '', (node[2] ?? '').split(':')[0]?.trim() ?? '');
  }
  const nameOf = (id: string): string => {
    const name = names.get(id);
    if (name === undefined) throw new Error(`the "${kind}" diagram uses ${id}, which it does not declare`);
    return name;
  };
  const edges = new Set<string>();
  for (const line of lines) {
    if (!line.includes('-->')) continue;
    const arrow = /^(\w+(?:\s*&\s*\w+)*)\s*-->\s*(\w+(?:\s*&\s*\w+)*)$/.exec(line);
    if (!arrow) throw new Error(`the "${kind}" diagram has a line the check cannot read: ${line}`);
    const ids = (group: string | undefined): string[] => (group ?? '').split('&').map((id) => id.trim());
    for (const from of ids(arrow[1])) for (const to of ids(arrow[2])) edges.add(edge(nameOf(from), nameOf(to)));
  }
  return [...edges].sort();
}

/** The rows of the table under the `###` heading: `| \`from\` | \`to\` | why |` → `from --> to`. */
export function tableEdges(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n### ${heading}\n`);
  if (start < 0) throw new Error(`no "### ${heading}" section`);
  const rest = markdown.slice(start + `\n### ${heading}\n`.length);
  const end = rest.search(/^#{2,3} /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)]
    .map((match) => edge(match[1] ?? '', match[2] ?? ''))
    .sort();
}

function difference(documented: string[], actual: string[]): { missing: string[]; notInTheCode: string[] } {
  return {
    missing: actual.filter((item) => !documented.includes(item)),
    notInTheCode: documented.filter((item) => !actual.includes(item)),
  };
}

const architecture = readFileSync(join(REPOSITORY_ROOT, 'docs', 'architecture.md'), 'utf8');
const imports = workspaceImports();

describe('the dependency diagrams of docs/architecture.md', () => {
  it('read the imports of the code (the scan finds what it should)', () => {
    expect(imports.size).toBeGreaterThanOrEqual(40);
    expect([...(imports.get('libs/testing') ?? [])]).toContain('libs/game/domain');
    expect([...(imports.get('apps/platform') ?? [])]).toContain('libs/gateway/service');
    expect(
      importedPackages(
        [
          "import { a } from '@reelstream/contracts';",
          "export * from '@reelstream/money';",
          'import type { B } from "@reelstream/platform-ports";',
          "const c = await import('@reelstream/platform-telemetry/event-store');",
          "const name = '@reelstream/metrics';",
        ].join('\n'),
      ),
    ).toEqual([
      '@reelstream/contracts',
      '@reelstream/money',
      '@reelstream/platform-ports',
      '@reelstream/platform-telemetry',
    ]);
  });

  it('draw every import between bounded contexts, and no other', () => {
    const actual = contextEdges(imports, (folder) => folder.startsWith('libs/'));
    expect(difference(diagramEdges(architecture, 'contexts'), actual)).toEqual({ missing: [], notInTheCode: [] });
  });

  it('draw every import of an app into a context, and no other', () => {
    const actual = contextEdges(imports, (folder) => folder.startsWith('apps/'));
    expect(difference(diagramEdges(architecture, 'apps'), actual)).toEqual({ missing: [], notInTheCode: [] });
  });

  it('list every library import across contexts (into platform, contracts, money and errors left out), and no other', () => {
    expect(difference(tableEdges(architecture, 'Imports across contexts'), crossContextImports(imports))).toEqual({
      missing: [],
      notInTheCode: [],
    });
  });

  it('are checked as they should be: a missing or an extra edge shows, an unreadable line fails', () => {
    const doc = [
      '```mermaid',
      'flowchart TB',
      '  %% dependencies: contexts',
      '  G["gateway: service"]',
      '  B["bonus"]',
      '  M["money"]',
      '  G --> B & M',
      '  B --> M',
      '```',
      '',
      '### Imports across contexts',
      '',
      '| from | to | why |',
      '|---|---|---|',
      '| `libs/gateway/service` | `libs/bonus/domain` | the early answer |',
      '',
      '## Next',
      '| `libs/x` | `libs/y` | not in the section |',
    ].join('\n');
    expect(diagramEdges(doc, 'contexts')).toEqual(['bonus --> money', 'gateway --> bonus', 'gateway --> money']);
    expect(tableEdges(doc, 'Imports across contexts')).toEqual(['libs/gateway/service --> libs/bonus/domain']);
    expect(difference(['bonus --> money', 'gateway --> bonus'], ['gateway --> bonus', 'gateway --> game'])).toEqual({
      missing: ['gateway --> game'],
      notInTheCode: ['bonus --> money'],
    });
    expect(() => diagramEdges(doc.replace('B --> M', 'B -- uses --> M'), 'contexts')).toThrow(/cannot read/);
    expect(() => diagramEdges(doc.replace('B --> M', 'B --> W'), 'contexts')).toThrow(
      /uses W, which it does not declare/,
    );
    expect(() => diagramEdges(doc, 'apps')).toThrow(/0 mermaid blocks/);
    expect(contextOf('libs/bonus/domain')).toBe('bonus');
    expect(contextOf('libs/money')).toBe('money');
    expect(contextOf('apps/gateway')).toBe('apps/gateway');
  });
});
