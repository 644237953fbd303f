import { project } from '../../jest.preset.mjs';

export default project(import.meta.dirname, 'errors');
