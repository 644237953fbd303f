export * from './currencies.js';
export * from './amount.js';
