export * from './time-ordered-id.js';
