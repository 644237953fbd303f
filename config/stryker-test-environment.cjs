// The test environment of config/jest.stryker.mjs; see config/stryker-test-files.cjs.
module.exports = require('./stryker-test-files.cjs').StrykerIndexingEnvironment;
