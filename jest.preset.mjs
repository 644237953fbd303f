// Shared jest settings: ESM TypeScript through @swc/jest.
export const preset = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testTimeout: 30_000,
};

/** The jest config of one project: `export default project(import.meta.dirname, 'name')`. */
export function project(rootDir, displayName, overrides = {}) {
  return { ...preset, rootDir, displayName, ...overrides };
}
