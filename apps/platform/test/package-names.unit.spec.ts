/**
 * A workspace package is named after its folder, so an import names where its code lives:
 * `libs/<context>/<layer>` is `@reelstream/<context>-<layer>`, `libs/<name>` is `@reelstream/<name>`
 * and `apps/<app>` is `@reelstream/<app>`. The jest project of a folder has the same name
 * without the scope, which is what `--selectProjects` takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

/** The name a workspace folder's package must have. */
export function packageNameOf(folder: string): string {
  const [top, first, second] = folder.split('/');
  if (top === 'libs' && second !== undefined) return `@reelstream/${first}-${second}`;
  return `@reelstream/${first}`;
}

const workspaces = (JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'package.json'), 'utf8')) as { workspaces: string[] })
  .workspaces;

describe('workspace package names', () => {
  it('are derived from the folder', () => {
    expect(packageNameOf('libs/platform/http')).toBe('@reelstream/platform-http');
    expect(packageNameOf('libs/bonus/service')).toBe('@reelstream/bonus-service');
    expect(packageNameOf('libs/money')).toBe('@reelstream/money');
    expect(packageNameOf('apps/game-server')).toBe('@reelstream/game-server');
  });

  it('match their folders, and so do their jest projects', () => {
    expect(workspaces.length).toBeGreaterThan(40);
    const mismatched = workspaces.flatMap((folder) => {
      const { name } = JSON.parse(readFileSync(join(REPOSITORY_ROOT, folder, 'package.json'), 'utf8')) as {
        name: string;
      };
      const expected = packageNameOf(folder);
      const jestConfig = readFileSync(join(REPOSITORY_ROOT, folder, 'jest.config.mjs'), 'utf8');
      const project = /project\(import\.meta\.dirname, '([^']+)'/.exec(jestConfig)?.[1];
      return [
        ...(name === expected ? [] : [`${folder}: package ${name}, expected ${expected}`]),
        ...(project === undefined || `@reelstream/${project}` === expected
          ? []
          : [`${folder}: jest project ${project}, expected ${expected.slice('@reelstream/'.length)}`]),
      ];
    });
    expect(mismatched).toEqual([]);
  });
});
