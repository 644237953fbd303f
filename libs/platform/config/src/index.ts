export * from './env.js';
export * from './operators.js';
export * from './production.js';
