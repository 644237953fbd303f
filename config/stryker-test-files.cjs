// @ts-check
/**
 * Which test file holds which test, so that a mutant run loads only the files of its covering tests.
 *
 * Stryker's jest runner gives a mutant run the full names of the tests that cover the mutant (as
 * jest's testNamePattern), but jest still imports every test file it was given to learn the names
 * inside: about 0.6 s a file, ten seconds a mutant for a bonus decider. Here the test environment
 * writes down, for every test that starts (the dry run starts them all), the file it lives in; the
 * sequencer then keeps only the files holding a test the pattern names.
 *
 * Stryker runs two test runner processes (`concurrency`) and starts a new one after a mutant times
 * out, but only the first ran the dry run. So the index is also written to a file in the run's
 * sandbox (each pair once, appended), which every runner reads; and a mutant whose covering tests
 * are not all in the index runs with every file. A runner that kept only the files it had indexed
 * itself would drop covering tests, and a mutant they kill would be recorded as surviving.
 *
 * Used by config/jest.stryker.mjs as testEnvironment (`StrykerIndexingEnvironment`) and
 * testSequencer (`CoveringFilesSequencer`, through config/stryker-test-sequencer.cjs).
 */
const { appendFileSync, readFileSync } = require('node:fs');
const { join } = require('node:path');
const { TestEnvironment } = require('jest-environment-node');
const Sequencer = require('@jest/test-sequencer').default;

/** @type {Map<string, Set<string>>} a test's full name → the test files holding a test of that name */
const filesByTestName = (globalThis[Symbol.for('reelstream.stryker.filesByTestName')] ??= new Map());

/** The index file, under the jest rootDir (Stryker's sandbox; ignored by git). */
const indexFile = (rootDir) => join(rootDir, '.stryker-test-files.ndjson');

/** Adds one name → file pair to the map; true when it was new. */
function remember(name, file) {
  const files = filesByTestName.get(name) ?? new Set();
  if (files.has(file)) return false;
  files.add(file);
  filesByTestName.set(name, files);
  return true;
}

/** Merges the pairs other runners wrote. */
function readIndex(rootDir) {
  let text;
  try {
    text = readFileSync(indexFile(rootDir), 'utf8');
  } catch {
    return;
  }
  for (const line of text.split('\n')) {
    if (!line) continue;
    try {
      const [name, file] = JSON.parse(line);
      remember(name, file);
    } catch {
      // A line another runner is still writing: read again on the next miss.
    }
  }
}

/**
 * The test names of Stryker's pattern: its jest runner joins `(${escapeRegExp(name)})` with `|`. An
 * escaped name never holds `)|(` (each of those characters gets a backslash), so the joins split it.
 * Undefined when the pattern is not of that form.
 */
function namesOf(pattern) {
  if (!pattern.startsWith('(') || !pattern.endsWith(')')) return undefined;
  return pattern
    .slice(1, -1)
    .split(')|(')
    .map((escaped) => escaped.replace(/\\(.)/g, '$1'));
}

/** The full name of a jest-circus test as jest matches testNamePattern against it: its describes and its name. */
function fullName(test) {
  const names = [];
  for (let block = test; block?.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

class StrykerIndexingEnvironment extends TestEnvironment {
  /** @type {string} */
  #testPath;

  /** @type {string} */
  #rootDir;

  constructor(config, context) {
    super(config, context);
    this.#testPath = context.testPath;
    this.#rootDir = config.projectConfig.rootDir;
  }

  async handleTestEvent(event) {
    if (event.name !== 'test_start') return;
    const name = fullName(event.test);
    if (remember(name, this.#testPath))
      appendFileSync(indexFile(this.#rootDir), `${JSON.stringify([name, this.#testPath])}\n`);
  }
}

class CoveringFilesSequencer extends Sequencer {
  /** @type {string[] | undefined} */
  #names;
  /** @type {string} */
  #rootDir;

  constructor(options) {
    super(options);
    const pattern = options?.globalConfig?.testNamePattern;
    this.#names = pattern ? namesOf(pattern) : undefined;
    this.#rootDir = options?.globalConfig?.rootDir ?? process.cwd();
  }

  async sort(tests) {
    const sorted = await super.sort(tests);
    const names = this.#names;
    if (!names) return sorted;
    if (names.some((name) => !filesByTestName.has(name))) readIndex(this.#rootDir);
    // A covering test not indexed yet (or added since the dry run): run every file, so none is missed.
    if (names.some((name) => !filesByTestName.has(name))) return sorted;
    const wanted = new Set(names.flatMap((name) => [...(filesByTestName.get(name) ?? [])]));
    return sorted.filter((test) => wanted.has(test.path));
  }
}

module.exports = { StrykerIndexingEnvironment, CoveringFilesSequencer };
