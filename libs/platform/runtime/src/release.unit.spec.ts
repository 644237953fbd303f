import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { RELEASE_VERSION } from './release.js';

describe('RELEASE_VERSION', () => {
  it("is the repository's package.json version", () => {
    const root = JSON.parse(readFileSync(new URL('../../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(RELEASE_VERSION).toBe(root.version);
    expect(RELEASE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});
