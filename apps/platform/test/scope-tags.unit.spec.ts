/**
 * The `scope:*` tags of the workspace projects, which the lint's module-boundary rule reads to keep one
 * bounded context out of another's internals (docs/architecture.md "The dependency rule across contexts"):
 * each project's scope follows its folder, only application libraries and clients form a context's API,
 * every scope in use has its constraint in eslint.config.mjs, and every row of the table of imports across
 * contexts goes into another context's API or into a library it published.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

const SHARED_FOLDERS = new Set(['contracts', 'errors', 'money', 'platform', 'testing']);
/** The layers whose library may be a context's API: the use cases, and a client of the context's service. */
const API_LAYERS = new Set(['application', 'client']);

/** The scope tag a workspace folder's project must have. */
export function scopeOf(folder: string): string {
  const [top, first] = folder.split('/');
  if (top === 'apps') return 'scope:app';
  return SHARED_FOLDERS.has(first ?? '') ? 'scope:shared' : `scope:${first}`;
}

interface Project {
  readonly folder: string;
  readonly name: string;
  readonly tags: string[];
}

/** What is wrong with one project's scope, API and published tags (nothing: an empty list). */
export function tagProblems({ folder, name, tags }: Project): string[] {
  const [top, context, layer] = folder.split('/');
  const scopes = tags.filter((tag) => tag.startsWith('scope:'));
  const apis = tags.filter((tag) => tag.startsWith('api:'));
  const published = tags.filter((tag) => tag.startsWith('published:'));
  const isContextLib = top === 'libs' && !SHARED_FOLDERS.has(context ?? '');
  const isApi = isContextLib && API_LAYERS.has(layer ?? '');
  const problems: string[] = [];
  if (scopes.length !== 1 || scopes[0] !== scopeOf(folder))
    problems.push(`${folder}: scope tags ${JSON.stringify(scopes)}, expected ["${scopeOf(folder)}"]`);
  const expectedApis = isApi ? [`api:${context}`] : [];
  if (JSON.stringify(apis) !== JSON.stringify(expectedApis))
    problems.push(`${folder}: api tags ${JSON.stringify(apis)}, expected ${JSON.stringify(expectedApis)}`);
  const ownPublished = `published:${name.replace('@reelstream/', '')}`;
  const publishable = isContextLib && !isApi && layer !== 'service';
  if (published.some((tag) => !publishable || tag !== ownPublished))
    problems.push(
      `${folder}: published tags ${JSON.stringify(published)}; only ${ownPublished}, on a domain or adapter lib`,
    );
  return problems;
}

/** The `| \`from\` | \`to\` |` rows of the section under the `###` heading, as [from, to]. */
function tableRows(markdown: string, heading: string): [string, string][] {
  const marker = `\n### ${heading}\n`;
  const start = markdown.indexOf(marker);
  if (start < 0) throw new Error(`no "### ${heading}" section`);
  const rest = markdown.slice(start + marker.length);
  const end = rest.search(/^#{2,3} /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  return [...section.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|/gm)].map((match) => [match[1] ?? '', match[2] ?? '']);
}

const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(REPOSITORY_ROOT, path), 'utf8')) as T;
const projects: Project[] = readJson<{ workspaces: string[] }>('package.json').workspaces.map((folder) => {
  const manifest = readJson<{ name: string; nx?: { tags?: string[] } }>(join(folder, 'package.json'));
  return { folder, name: manifest.name, tags: manifest.nx?.tags ?? [] };
});

describe('the scope tags of the workspace projects', () => {
  it('are derived from the folder, and a wrong or missing tag is reported', () => {
    expect(scopeOf('libs/bonus/domain')).toBe('scope:bonus');
    expect(scopeOf('libs/platform/http')).toBe('scope:shared');
    expect(scopeOf('libs/money')).toBe('scope:shared');
    expect(scopeOf('apps/game-server')).toBe('scope:app');
    const good = { folder: 'libs/bonus/application', name: '@reelstream/bonus-application' };
    expect(tagProblems({ ...good, tags: ['type:application', 'scope:bonus', 'api:bonus'] })).toEqual([]);
    expect(tagProblems({ ...good, tags: ['type:application', 'scope:game', 'api:bonus'] })).toHaveLength(1);
    expect(tagProblems({ ...good, tags: ['type:application', 'scope:bonus'] })).toHaveLength(1);
    const adapters = { folder: 'libs/bonus/adapters', name: '@reelstream/bonus-adapters' };
    expect(tagProblems({ ...adapters, tags: ['scope:bonus', 'published:bonus-adapters'] })).toEqual([]);
    expect(tagProblems({ ...adapters, tags: ['scope:bonus', 'api:bonus'] })).toHaveLength(1);
    expect(tagProblems({ ...adapters, tags: ['scope:bonus', 'published:bonus-domain'] })).toHaveLength(1);
    const service = { folder: 'libs/game/service', name: '@reelstream/game-service' };
    expect(tagProblems({ ...service, tags: ['scope:game', 'published:game-service'] })).toHaveLength(1);
  });

  it('follow the folders: one scope each, the API on application libs and clients, published only on domains and adapters', () => {
    expect(projects.length).toBeGreaterThan(40);
    expect(projects.flatMap(tagProblems)).toEqual([]);
  });

  it('each have their constraint in eslint.config.mjs', () => {
    const eslintConfig = readFileSync(join(REPOSITORY_ROOT, 'eslint.config.mjs'), 'utf8');
    const scopes = [...new Set(projects.map(({ folder }) => scopeOf(folder)))].sort();
    expect(scopes).toEqual(expect.arrayContaining(['scope:app', 'scope:bonus', 'scope:gateway', 'scope:shared']));
    expect(scopes.filter((scope) => !eslintConfig.includes(`sourceTag: '${scope}'`))).toEqual([]);
  });

  it("let the table of imports across contexts name only another context's API or what it published", () => {
    const architecture = readFileSync(join(REPOSITORY_ROOT, 'docs', 'architecture.md'), 'utf8');
    const tagsOf = new Map(projects.map(({ folder, tags }) => [folder, tags]));
    const rows = tableRows(architecture, 'Imports across contexts');
    expect(rows.length).toBeGreaterThan(10);
    const intoInternals = rows.filter(([, to]) => {
      const tags = tagsOf.get(to);
      if (tags === undefined) throw new Error(`the table names ${to}, which no workspace is`);
      return !tags.some((tag) => tag.startsWith('api:') || tag.startsWith('published:'));
    });
    expect(intoInternals).toEqual([]);
  });
});
