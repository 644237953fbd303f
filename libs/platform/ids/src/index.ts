export { MAX_WORKER_ID, TimeOrderedIdGenerator } from './time-ordered-id.js';
