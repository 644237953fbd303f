export * from './log-events.js';
export * from './projections.js';
export * from './replay.js';
export * from './time-range.js';
export * from './formats.js';
export * from './catalog-facts.js';
export * from './audit-index.js';
// The round audit's rule of which transactions a round sent, for the gateway's reconciliation reads (ADR 0007).
export { auditInputIds, requestedChangeMinor } from '@reelstream/analytics-domain';
export * from './export/row-writers.js';
export * from './export/run-export.js';
