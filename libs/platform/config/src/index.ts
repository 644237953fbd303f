export * from './env.js';
export * from './operators.js';
