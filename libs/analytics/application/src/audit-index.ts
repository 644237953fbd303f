// `audit round`, `reconcile` and the HTML report (helper "audit"'s part of issue 13).
export * from './audit/load-audit.js';
export * from './audit/render-audit.js';
export * from './html/html-report.js';
export * from './html/html-tables.js';
