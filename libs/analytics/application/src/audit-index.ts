// `audit round`, `reconcile` and the HTML report (helper "audit"'s part of issue 13).
export * from './audit/load-audit.js';
export * from './audit/render-audit.js';
