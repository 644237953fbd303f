// @ts-check
/**
 * Which test file holds which test, so that a mutant run loads only the files of its covering tests.
 *
 * Stryker's jest runner gives a mutant run the full names of the tests that cover the mutant (as
 * jest's testNamePattern), but jest still imports every test file it was given to learn the names
 * inside: about 0.6 s a file, ten seconds a mutant for a bonus decider. Here the test environment
 * writes down, for every test that starts (the dry run starts them all), the file it lives in; the
 * sequencer then keeps only the files holding a test the pattern names. Both run in Stryker's test
 * runner process (jest runs in band there), so they share one map on the process's global object.
 *
 * Used by config/jest.stryker.mjs as testEnvironment (`StrykerIndexingEnvironment`) and
 * testSequencer (`CoveringFilesSequencer`, through config/stryker-test-sequencer.cjs).
 */
const { TestEnvironment } = require('jest-environment-node');
const Sequencer = require('@jest/test-sequencer').default;

/** @type {Map<string, Set<string>>} a test's full name → the test files holding a test of that name */
const filesByTestName = (globalThis[Symbol.for('reelstream.stryker.filesByTestName')] ??= new Map());

/** The full name of a jest-circus test as jest matches testNamePattern against it: its describes and its name. */
function fullName(test) {
  const names = [];
  for (let block = test; block?.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

class StrykerIndexingEnvironment extends TestEnvironment {
  /** @type {string} */
  #testPath;

  constructor(config, context) {
    super(config, context);
    this.#testPath = context.testPath;
  }

  async handleTestEvent(event) {
    if (event.name !== 'test_start') return;
    const name = fullName(event.test);
    const files = filesByTestName.get(name) ?? new Set();
    files.add(this.#testPath);
    filesByTestName.set(name, files);
  }
}

class CoveringFilesSequencer extends Sequencer {
  /** @type {RegExp | undefined} */
  #pattern;

  constructor(options) {
    super(options);
    const pattern = options?.globalConfig?.testNamePattern;
    // jest matches the pattern case-insensitively; so does this.
    this.#pattern = pattern ? new RegExp(pattern, 'i') : undefined;
  }

  async sort(tests) {
    const sorted = await super.sort(tests);
    const pattern = this.#pattern;
    if (!pattern || filesByTestName.size === 0) return sorted;
    const wanted = new Set();
    for (const [name, files] of filesByTestName) if (pattern.test(name)) for (const file of files) wanted.add(file);
    // A pattern naming no test we have seen (none recorded yet, or a test added since): run all.
    if (wanted.size === 0) return sorted;
    return sorted.filter((test) => wanted.has(test.path));
  }
}

module.exports = { StrykerIndexingEnvironment, CoveringFilesSequencer };
