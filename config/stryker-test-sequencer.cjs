// The test sequencer of config/jest.stryker.mjs; see config/stryker-test-files.cjs.
module.exports = require('./stryker-test-files.cjs').CoveringFilesSequencer;
