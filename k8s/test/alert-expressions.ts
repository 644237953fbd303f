/**
 * A light PromQL check for the alerts of k8s/monitoring: the expression is balanced (brackets,
 * quotes), calls only known functions and aggregations, and names only metrics somebody exports.
 * Not a full parser: it tokenizes, tells label names (inside `{}` and after by/without/on/ignoring/
 * group_left/group_right) and durations (inside `[]`) from metric names, and reports the rest.
 */
import { MetricNames } from '@reelstream/platform-telemetry';

/**
 * The services' metrics as scraped (libs/platform/telemetry, OpenTelemetry Prometheus exporter): every name
 * of `MetricNames`, a histogram (`…_seconds`) as its three series.
 */
const ownMetrics = Object.values(MetricNames).flatMap((name) =>
  name.endsWith('_seconds') ? [`${name}_bucket`, `${name}_sum`, `${name}_count`] : [name],
);
export const SERVICE_METRICS = new Set([
  ...ownMetrics,
  // OpenTelemetry instrumentations: the exporter adds no unit suffix (docs of libs/platform/telemetry).
  ...['http_server_request_duration', 'http_client_request_duration', 'v8js_gc_duration'].flatMap((name) => [
    `${name}_bucket`,
    `${name}_sum`,
    `${name}_count`,
  ]),
  // @opentelemetry/instrumentation-runtime-node (seconds, no unit suffix added by the exporter).
  ...['min', 'max', 'mean', 'stddev', 'p50', 'p90', 'p99'].map((stat) => `nodejs_eventloop_delay_${stat}`),
  'nodejs_eventloop_utilization',
  'nodejs_eventloop_time_total',
  ...['used', 'space_size', 'space_available_size', 'space_physical_size'].map((name) => `v8js_memory_heap_${name}`),
  'v8js_resource_active',
  'target_info',
  'up',
]);

/** Metrics of what runs beside the apps, by who exports them. */
export const EXTERNAL_METRICS = new Set([
  // kube-state-metrics
  'kube_statefulset_replicas',
  'kube_statefulset_status_replicas_ready',
  'kube_pod_status_ready',
  // cert-manager (the Ingress certificate)
  'certmanager_certificate_expiration_timestamp_seconds',
]);

const FUNCTIONS = new Set([
  'sum',
  'max',
  'min',
  'avg',
  'count',
  'topk',
  'bottomk',
  'rate',
  'irate',
  'increase',
  'delta',
  'deriv',
  'histogram_quantile',
  'time',
  'abs',
  'absent',
  'absent_over_time',
  'max_over_time',
  'min_over_time',
  'avg_over_time',
  'clamp_min',
  'clamp_max',
  'vector',
  'scalar',
]);
const LABEL_LIST_KEYWORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right']);
const OPERATOR_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset']);
const PAIRS: Record<string, string> = { ')': '(', '}': '{', ']': '[' };

export interface ExpressionReport {
  metrics: string[];
  problems: string[];
}

// Long because: one pass of a tokenizer whose states (brackets, label lists, strings) belong together.
export function checkExpression(expr: string, known: ReadonlySet<string>): ExpressionReport {
  const problems: string[] = [];
  const metrics: string[] = [];
  const stack: string[] = [];
  let labelListDepth: number | undefined;
  let i = 0;
  while (i < expr.length) {
    const char = expr[i] as string;
    if (char === '"' || char === "'" || char === '`') {
      const end = findStringEnd(expr, i);
      if (end < 0) {
        problems.push(`unterminated string at ${i}`);
        break;
      }
      i = end + 1;
      continue;
    }
    if ('({['.includes(char)) {
      stack.push(char);
      i++;
      continue;
    }
    if (')}]'.includes(char)) {
      if (stack.pop() !== PAIRS[char]) problems.push(`unbalanced ${char} at ${i}`);
      if (labelListDepth !== undefined && stack.length < labelListDepth) labelListDepth = undefined;
      i++;
      continue;
    }
    const word = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(expr.slice(i))?.[0];
    if (!word) {
      i++;
      continue;
    }
    const previous = expr[i - 1] ?? '';
    i += word.length;
    const inLabels = stack.at(-1) === '{' || labelListDepth !== undefined;
    const inRange = stack.at(-1) === '[';
    // A number's exponent or a duration's unit (5m, 1e3) is part of the number.
    if (inLabels || inRange || /[0-9.]/.test(previous)) continue;
    if (LABEL_LIST_KEYWORDS.has(word)) {
      labelListDepth = stack.length + 1;
      continue;
    }
    if (OPERATOR_KEYWORDS.has(word)) continue;
    // A call `f(…)`, or an aggregation with its grouping first: `sum by (label) (…)`.
    if (/^\s*(\(|(by|without)\s*\()/.test(expr.slice(i))) {
      if (!FUNCTIONS.has(word)) problems.push(`unknown function ${word}`);
      continue;
    }
    metrics.push(word);
    if (!known.has(word)) problems.push(`unknown metric ${word}`);
  }
  if (stack.length > 0) problems.push(`unclosed ${stack.join('')}`);
  return { metrics, problems };
}

function findStringEnd(expr: string, start: number): number {
  const quote = expr[start];
  for (let j = start + 1; j < expr.length; j++) {
    if (expr[j] === '\\' && quote !== '`') j++;
    else if (expr[j] === quote) return j;
  }
  return -1;
}
