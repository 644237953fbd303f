import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { adapterExternalRules, expandedQuery } from './adapter-rules.js';
import { checkExpression, EXTERNAL_METRICS, SERVICE_METRICS } from './alert-expressions.js';
import { readDocuments } from './manifest-files.js';
import { schemaProblems, type K8sObject } from './schemas.js';

/** The alerts (k8s/monitoring/alerts.yaml) and the runbooks they link (docs/runbooks/). */
const repository = join(import.meta.dirname, '../..');
const runbooksDir = join(repository, 'docs/runbooks');
const known = new Set([...SERVICE_METRICS, ...EXTERNAL_METRICS]);

interface Rule {
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  record?: string;
}
const rulesOf = (object: K8sObject | undefined) =>
  ((object?.['spec'] as { groups: { rules: Rule[] }[] }).groups ?? []).flatMap((g) => g.rules);
const [ruleObject] = readDocuments('monitoring/alerts.yaml') as K8sObject[];
const rules = rulesOf(ruleObject);
const alerts = rules.filter((rule) => rule.alert);
const [sloObject] = readDocuments('monitoring/slo-rules.yaml') as K8sObject[];
const sloRules = rulesOf(sloObject);
const recorded = new Set(sloRules.flatMap((rule) => (rule.record ? [rule.record] : [])));
const runbookOf = (rule: Rule) =>
  /\/docs\/runbooks\/([a-z0-9-]+\.md)$/.exec(rule.annotations?.['runbook_url'] ?? '')?.[1];

describe('the alerts', () => {
  it('cover what an SRE must be woken for', () => {
    expect(alerts.map((a) => a.alert).sort()).toEqual(
      [
        'BonusExpiryBacklog',
        'CancelNotDelivered',
        'CertificateExpiresSoon',
        'ConsumerLag',
        'EventLoopDelayHigh',
        'MessageParked',
        'OperatorWalletDown',
        'OperatorWalletSlow',
        'OutboxBehind',
        'PodsNotReady',
        'ProjectionBehind',
        'ServiceAbsent',
        'ServiceDown',
        'WalletRequestRefused',
        'WinDeadLettered',
        'WinRedriveScheduleOver',
      ].sort(),
    );
  });

  it.each(alerts.map((a) => [a.alert, a] as const))(
    '%s parses, uses only exported metrics, and has severity, summary, description and runbook_url',
    (_name, alert) => {
      const report = checkExpression(alert.expr, known);
      expect(report.problems).toEqual([]);
      expect(report.metrics.length).toBeGreaterThan(0);
      expect(['critical', 'warning']).toContain(alert.labels?.['severity']);
      expect(Object.keys(alert.annotations ?? {}).sort()).toEqual(['description', 'runbook_url', 'summary']);
      expect(runbookOf(alert)).toBeDefined();
    },
  );

  it('link runbooks that exist, each with Symptom, Impact, Confirm and Fix', () => {
    const problems: string[] = [];
    for (const alert of alerts) {
      const file = join(runbooksDir, runbookOf(alert) ?? 'missing');
      if (!existsSync(file)) {
        problems.push(`${alert.alert}: ${file} does not exist`);
        continue;
      }
      const headings = [...readFileSync(file, 'utf8').matchAll(/^## (.+)$/gm)].map((m) => m[1]);
      for (const heading of ['Symptom', 'Impact', 'Confirm', 'Fix'])
        if (!headings.includes(heading)) problems.push(`${alert.alert}: ${file} has no "## ${heading}"`);
    }
    expect(problems).toEqual([]);
  });

  it('is refused by the checks when an expression is unbalanced or names a metric nobody exports', async () => {
    expect(checkExpression('sum(rate(reelstream_wallet_callbacks_total[5m])', known).problems).toEqual(['unclosed (']);
    expect(checkExpression('rate(reelstream_wallet_callbacks_total{outcome="5xx"]', known).problems).toEqual([
      'unbalanced ] at 52',
      'unclosed (',
    ]);
    expect(checkExpression('sum by (operator) (reelstream_wallet_calbacks_total) > 0', known).problems).toEqual([
      'unknown metric reelstream_wallet_calbacks_total',
    ]);
    expect(checkExpression('sumx(up)', known).problems).toEqual(['unknown function sumx']);
    const broken = structuredClone(ruleObject) as K8sObject;
    const group = (broken['spec'] as { groups: Record<string, unknown>[] }).groups[0] as Record<string, unknown>;
    (group['rules'] as Record<string, unknown>[])[0] = { alert: 'X', expr: 'up', for: 'ten minutes', anotations: {} };
    expect(await schemaProblems(broken)).toEqual([
      'unknown field spec.groups.0.rules.0.anotations',
      '/spec/groups/0/rules/0/for must match pattern "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"',
    ]);
  });
});

/** The SLO table of docs/slo.md: SLI name and objective (a share, 0.999 for 99.9 %). */
function sloTable(): { sli: string; objective: number }[] {
  const text = readFileSync(join(repository, 'docs/slo.md'), 'utf8');
  const table = text.split('<!-- slo-table')[1]?.split('\n\n')[0] ?? '';
  return [...table.matchAll(/^\| `([a-z_]+)` \|.*\| ([0-9.]+) % \|$/gm)].map((m) => ({
    sli: m[1] as string,
    objective: Number(m[2]) / 100,
  }));
}

/** The burn-rate pairs of docs/slo.md: severity, factor, long and short window. */
const BURNS = [
  ['critical', 14.4, '1h', '5m'],
  ['critical', 6, '6h', '30m'],
  ['warning', 3, '1d', '2h'],
  ['warning', 1, '3d', '6h'],
] as const;

describe('the SLO rules', () => {
  const table = sloTable();
  const sloAlerts = sloRules.filter((rule) => rule.alert);

  it('record, for every SLI of docs/slo.md, its share of bad events over every window', () => {
    expect(table.map((row) => row.sli)).toEqual([
      'spin_errors',
      'spin_slow',
      'callback_undelivered',
      'callback_slow',
      'registration_errors',
    ]);
    const windows = ['5m', '30m', '1h', '2h', '6h', '1d', '3d'];
    expect([...recorded].sort()).toEqual(
      table.flatMap(({ sli }) => windows.map((window) => `slo:${sli}:ratio_rate${window}`)).sort(),
    );
    for (const rule of sloRules.filter((r) => r.record)) {
      const window = /ratio_rate([0-9]+[mhd])$/.exec(rule.record as string)?.[1];
      expect(checkExpression(rule.expr, known).problems).toEqual([]);
      // Every range in the expression is the window the rule's name says.
      expect(new Set([...rule.expr.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]))).toEqual(new Set([window]));
    }
  });

  it('alert on each SLI at the burn rates of its objective: fast burns page, slow burns open a ticket', () => {
    for (const { sli, objective } of table) {
      const budget = Number((1 - objective).toFixed(6));
      const mine = sloAlerts.filter((rule) => rule.expr.includes(`slo:${sli}:`));
      expect(mine.map((rule) => rule.labels?.['severity']).sort()).toEqual(['critical', 'warning']);
      for (const rule of mine) {
        expect(checkExpression(rule.expr, new Set([...known, ...recorded])).problems).toEqual([]);
        const expected = BURNS.filter(([severity]) => severity === rule.labels?.['severity'])
          .map(
            ([, factor, long, short]) =>
              `(slo:${sli}:ratio_rate${long} > (${factor} * ${budget}) and slo:${sli}:ratio_rate${short} > (${factor} * ${budget}))`,
          )
          .join(' or ');
        expect(rule.expr).toBe(expected);
        expect(existsSync(join(runbooksDir, runbookOf(rule) ?? 'missing'))).toBe(true);
      }
    }
  });

  it('are refused by the checks when a window or a recorded name is wrong', () => {
    expect(checkExpression('slo:spin_errors:ratio_rate1h > 0.01', known).problems).toEqual([
      'unknown metric slo:spin_errors:ratio_rate1h',
    ]);
    expect(sloTable().length).toBeGreaterThan(0);
  });
});

describe('the Grafana dashboards', () => {
  const dir = join(repository, 'k8s/monitoring/dashboards');
  const files = readdirSync(dir).filter((file) => file.endsWith('.json'));
  interface Panel {
    id: number;
    title: string;
    targets?: { expr: string; refId: string }[];
  }
  const dashboards = files.map((file) => ({
    file,
    json: JSON.parse(readFileSync(join(dir, file), 'utf8')) as { uid: string; title: string; panels: Panel[] },
  }));

  it('are the four of docs/slo.md, each in the monitoring kustomization as a ConfigMap', () => {
    expect(dashboards.map((d) => d.json.title).sort()).toEqual([
      'reelstream: consumers and lag',
      'reelstream: event store',
      'reelstream: operator wallet health',
      'reelstream: platform overview',
    ]);
    expect(new Set(dashboards.map((d) => d.json.uid)).size).toBe(dashboards.length);
    const kustomization = readFileSync(join(repository, 'k8s/monitoring/kustomization.yaml'), 'utf8');
    for (const { file } of dashboards) expect(kustomization).toContain(`- dashboards/${file}`);
  });

  it('query, in every panel, only metrics the services export or the SLO rules record', () => {
    const problems: string[] = [];
    const all = new Set([...known, ...recorded]);
    for (const { file, json } of dashboards) {
      expect(new Set(json.panels.map((panel) => panel.id)).size).toBe(json.panels.length);
      for (const panel of json.panels) {
        if (!panel.targets?.length) problems.push(`${file}: "${panel.title}" has no query`);
        for (const target of panel.targets ?? []) {
          const report = checkExpression(target.expr, all);
          if (report.metrics.length === 0) problems.push(`${file}: "${panel.title}" ${target.refId} names no metric`);
          for (const problem of report.problems) problems.push(`${file}: "${panel.title}" ${target.refId}: ${problem}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('the PodMonitors', () => {
  const monitors = readDocuments('monitoring/pod-monitors.yaml') as K8sObject[];

  it('scrape the metrics port of each app', () => {
    expect(
      monitors.map((m) => {
        const spec = m['spec'] as {
          selector: { matchLabels: Record<string, string> };
          podMetricsEndpoints: { port: string; path: string }[];
        };
        return [m.metadata.name, spec.selector.matchLabels['app.kubernetes.io/name'], spec.podMetricsEndpoints[0]];
      }),
    ).toEqual(
      ['gateway', 'game-server', 'bonus-ledger', 'wallet-dispatcher'].map((app) => [
        app,
        app,
        expect.objectContaining({ port: 'metrics', path: '/metrics' }),
      ]),
    );
  });

  it('are refused by the schema with a misspelt field, a bad interval or no selector', async () => {
    const broken = structuredClone(monitors[0]) as K8sObject;
    const spec = broken['spec'] as Record<string, unknown>;
    spec['podMetricEndpoints'] = spec['podMetricsEndpoints'];
    (spec['podMetricsEndpoints'] as Record<string, unknown>[])[0] = { port: 'metrics', interval: '30 seconds' };
    delete spec['selector'];
    expect(await schemaProblems(broken)).toEqual([
      "/spec must have required property 'selector'",
      'unknown field spec.podMetricEndpoints',
      '/spec/podMetricsEndpoints/0/interval must match pattern "^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"',
    ]);
  });
});

describe('the runbooks', () => {
  const files = readdirSync(runbooksDir).filter((f) => f.endsWith('.md') && f !== 'README.md');
  const index = readFileSync(join(runbooksDir, 'README.md'), 'utf8');

  it('all have Symptom, Impact, Confirm (with commands) and Fix, and are listed in docs/runbooks/README.md', () => {
    const problems: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(runbooksDir, file), 'utf8');
      for (const heading of ['Symptom', 'Impact', 'Confirm', 'Fix'])
        if (!new RegExp(`^## ${heading}$`, 'm').test(text)) problems.push(`${file}: no "## ${heading}"`);
      if (!/## Confirm[\s\S]*```/.test(text)) problems.push(`${file}: Confirm has no commands`);
      if (!index.includes(`(${file})`)) problems.push(`${file}: not linked from docs/runbooks/README.md`);
    }
    expect(problems).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(['backup-and-restore.md', 'certificate-rotation.md', 'event-schema-upgrade.md']),
    );
  });

  it('are reached from the repository README and k8s/README.md', () => {
    for (const readme of ['README.md', 'k8s/README.md'])
      expect(readFileSync(join(repository, readme), 'utf8')).toMatch(/\]\((\.\.\/)?docs\/runbooks\/README\.md\)/);
  });

  it('name only metrics that are exported (a name, or the prefix a grep pattern uses)', () => {
    // The runtime instrumentation's label names read like metric names; prometheus-adapter serves the external metrics.
    const names = [
      ...known,
      ...adapterExternalRules().map((rule) => rule.name.as),
      'nodejs_eventloop_state',
      'v8js_heap_space_name',
      'v8js_gc_type',
      'v8js_resource_type',
    ];
    const problems: string[] = [];
    const docs = ['observability', 'slo'].map((name) => join(repository, 'docs', `${name}.md`));
    for (const file of [...files.map((name) => join(runbooksDir, name)), ...docs]) {
      const text = readFileSync(file, 'utf8');
      for (const [name] of text.matchAll(/\b(?:reelstream|nodejs|v8js|http_server|http_client)_[a-z0-9_]+/g))
        if (!names.some((metric) => metric === name || metric.startsWith(`${name}_`)))
          problems.push(`${file}: ${name}`);
    }
    expect(problems).toEqual([]);
  });

  it('link only files that exist', () => {
    const problems: string[] = [];
    for (const file of [...files, 'README.md']) {
      const text = readFileSync(join(runbooksDir, file), 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g))
        if (target && !/^[a-z]+:/.test(target) && !existsSync(join(runbooksDir, target)))
          problems.push(`${file} → ${target}`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the autoscalers\u2019 external metrics (k8s/monitoring/prometheus-adapter-rules.yaml)', () => {
  const rules = adapterExternalRules();
  const autoscalers = readDocuments('base/autoscaling.yaml') as K8sObject[];
  const externalNames = autoscalers.flatMap((autoscaler) =>
    ((autoscaler['spec'] as { metrics: { type: string; external?: { metric: { name: string } } }[] }).metrics ?? [])
      .filter((metric) => metric.type === 'External')
      .map((metric) => metric.external?.metric.name ?? ''),
  );

  it('serve every external metric an autoscaler names, each from one rule', () => {
    expect(externalNames).toEqual(['reelstream_consumer_group_lag']);
    for (const name of externalNames) expect(rules.filter((rule) => rule.name.as === name)).toHaveLength(1);
  });

  it.each(rules.map((rule) => [rule.name.as, rule] as const))(
    '%s is read from an exported metric with a query that parses, by namespace',
    (_name, rule) => {
      const series = /^([a-z_:][a-z0-9_:]*)\{/.exec(rule.seriesQuery)?.[1] ?? '';
      expect(known.has(series)).toBe(true);
      expect(new RegExp(rule.name.matches).test(series)).toBe(true);
      expect(checkExpression(rule.seriesQuery, known).problems).toEqual([]);
      const query = checkExpression(expandedQuery(rule, series), known);
      expect(query.problems).toEqual([]);
      expect(query.metrics).toEqual([series]);
      expect(rule.resources.overrides).toEqual({ namespace: { resource: 'namespace' } });
    },
  );

  it('count the lag of a partition once, however many replicas report it', () => {
    const [lag] = rules;
    // Every replica of a group reports every partition: one value per partition (max), then the group's sum.
    expect(lag?.metricsQuery.replace(/\s+/g, ' ')).toBe(
      'sum by (group) (max by (group, topic, partition) (<<.Series>>{<<.LabelMatchers>>}))',
    );
  });
});
