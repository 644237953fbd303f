// `audit round`, `reconcile` and the HTML report.
export * from './audit/load-audit.js';
export * from './audit/render-audit.js';
export * from './html/html-report.js';
export * from './html/html-tables.js';
