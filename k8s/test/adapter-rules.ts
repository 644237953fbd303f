import { parse } from 'yaml';
import { readDocuments } from './manifest-files.js';
import type { K8sObject } from './schemas.js';

/** One external rule of prometheus-adapter: the series it finds, the name it serves them under, its query. */
export interface ExternalRule {
  seriesQuery: string;
  resources: { overrides: Record<string, { resource: string }> };
  name: { matches: string; as: string };
  metricsQuery: string;
}

/** The external rules of k8s/monitoring/prometheus-adapter-rules.yaml, as prometheus-adapter reads its config. */
export function adapterExternalRules(): ExternalRule[] {
  const [configMap] = readDocuments('monitoring/prometheus-adapter-rules.yaml') as K8sObject[];
  const text = (configMap?.['data'] as Record<string, string> | undefined)?.['config.yaml'] ?? '';
  return (parse(text) as { externalRules?: ExternalRule[] }).externalRules ?? [];
}

/**
 * A rule's metricsQuery as the adapter sends it to Prometheus for `metric`: the series in place of
 * `<<.Series>>`, no label matchers (the autoscaler's selector adds them) and no `<<.GroupBy>>`.
 */
export function expandedQuery(rule: ExternalRule, metric: string): string {
  return rule.metricsQuery
    .replaceAll('<<.Series>>', metric)
    .replaceAll('{<<.LabelMatchers>>}', '')
    .replaceAll('<<.GroupBy>>', '');
}
