import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
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
}
const [ruleObject] = readDocuments('monitoring/alerts.yaml') as K8sObject[];
const rules = ((ruleObject?.['spec'] as { groups: { rules: Rule[] }[] }).groups ?? []).flatMap((g) => g.rules);
const alerts = rules.filter((rule) => rule.alert);
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
