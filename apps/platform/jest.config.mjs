import { project } from '../../jest.preset.mjs';

// The e2e flows run real processes and wait for real timers (a bonus expiring, rounds resolved after a crash).
export default project(import.meta.dirname, 'platform');
