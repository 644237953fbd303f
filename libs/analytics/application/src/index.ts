export * from './audit-index.js';
