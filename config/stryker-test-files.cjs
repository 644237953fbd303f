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
 * Two more savings, for a mutant that is killed: its covering files run quickest first (by their dry-run
 * durations, in the same index), and everything after the first failing test is skipped. A mutant of the
 * slot engine is covered by every test file that compiles a game; its own unit tests are quick, and a kill
 * there spares the rest.
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

/** @type {Map<string, number>} a test file → how long its tests took in the dry run, in ms */
const durationByFile = (globalThis[Symbol.for('reelstream.stryker.durationByFile')] ??= new Map());

/**
 * The run now under way (one mutant's, or the dry run): `failed` once one of its tests failed. Jest has no
 * bail that Stryker can use, so the test environment skips every test after the first failure itself: the
 * mutant is killed by then, and the rest would only cost time. The sequencer starts each run with it false.
 * @type {{ failed: boolean }}
 */
const run = (globalThis[Symbol.for('reelstream.stryker.run')] ??= { failed: false });

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

/** Merges the pairs (and the dry run's file durations, `{ file, ms }`) other runners wrote. */
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
      const entry = JSON.parse(line);
      if (Array.isArray(entry)) remember(entry[0], entry[1]);
      else if (!durationByFile.has(entry.file)) durationByFile.set(entry.file, entry.ms);
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

  /** When this file's environment was made (before its module loads), for the dry run's durations. */
  #startedAt = Date.now();

  /** Whether a test of this file started: a file whose tests the pattern all leaves out has no duration. */
  #ranTests = false;

  async handleTestEvent(event) {
    if (event.name === 'test_fn_failure' || event.name === 'hook_failure') run.failed = true;
    // After a failure, what is left is skipped: whole describe blocks (their hooks too), then single tests.
    if (event.name === 'run_describe_start' && run.failed) event.describeBlock.mode = 'skip';
    if (event.name !== 'test_start') return;
    if (run.failed) event.test.mode = 'skip';
    this.#ranTests = true;
    const name = fullName(event.test);
    if (remember(name, this.#testPath))
      appendFileSync(indexFile(this.#rootDir), `${JSON.stringify([name, this.#testPath])}\n`);
  }

  async teardown() {
    // The dry run is the first run of every file (a runner started later reads its durations from the index
    // first): that duration orders later runs.
    if (this.#ranTests && !durationByFile.has(this.#testPath)) readIndex(this.#rootDir);
    if (this.#ranTests && !durationByFile.has(this.#testPath)) {
      const ms = Date.now() - this.#startedAt;
      durationByFile.set(this.#testPath, ms);
      appendFileSync(indexFile(this.#rootDir), `${JSON.stringify({ file: this.#testPath, ms })}\n`);
    }
    await super.teardown();
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
    run.failed = false;
    const sorted = await super.sort(tests);
    const names = this.#names;
    if (!names) return sorted;
    if (names.some((name) => !filesByTestName.has(name))) readIndex(this.#rootDir);
    // A covering test not indexed yet (or added since the dry run): run every file, so none is missed.
    if (names.some((name) => !filesByTestName.has(name))) return this.#quickestFirst(sorted);
    const wanted = new Set(names.flatMap((name) => [...(filesByTestName.get(name) ?? [])]));
    return this.#quickestFirst(sorted.filter((test) => wanted.has(test.path)));
  }

  /** The files that took least in the dry run first: the sooner a test fails, the more of the run is skipped. */
  #quickestFirst(tests) {
    if (tests.some((test) => !durationByFile.has(test.path))) readIndex(this.#rootDir);
    const duration = (test) => durationByFile.get(test.path) ?? Number.MAX_SAFE_INTEGER;
    return [...tests].sort((a, b) => duration(a) - duration(b));
  }
}

module.exports = { StrykerIndexingEnvironment, CoveringFilesSequencer };
