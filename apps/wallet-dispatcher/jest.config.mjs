import { project } from '../../jest.preset.mjs';

// The isolation test measures one operator's latency while another's wallet fails: it runs on its
// own, after the rest of `npm test` (`test:isolation:short`), so no other suite's load lands in one
// of its two measured phases and not the other. `RUN_ISOLATION=1` selects it.
export default project(import.meta.dirname, 'wallet-dispatcher', {
  testPathIgnorePatterns:
    process.env['RUN_ISOLATION'] === '1' ? [] : ['/node_modules/', 'isolation\\.e2e\\.spec\\.ts$'],
});
