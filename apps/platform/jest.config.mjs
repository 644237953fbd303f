import { project } from '../../jest.preset.mjs';

// The e2e flows run real processes and wait for real timers (a bonus expiring, rounds resolved after a crash).
// The replica proof (13 processes, SIGKILLs for a minute or more) runs on its own after the rest of `npm test`
// (`test:replicas:short`), so it neither slows other suites nor is timed under their load. `RUN_REPLICAS=1` selects it.
export default project(import.meta.dirname, 'platform', {
  testPathIgnorePatterns: process.env['RUN_REPLICAS'] === '1' ? [] : ['/node_modules/', 'replicas\\.e2e\\.spec\\.ts$'],
});
