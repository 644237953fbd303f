/**
 * The alerts fire, and stay silent, as they should: Prometheus's own `promtool test rules` runs the tests of
 * k8s/monitoring/tests/alerts.test.yaml against the rules of monitoring/alerts.yaml and
 * monitoring/slo-rules.yaml (their PrometheusRule groups, written as plain rule files). Debian's
 * `prometheus` package brings promtool; .ci/run installs it, and under CI=true a missing promtool fails.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { k8sRoot, readDocuments } from './manifest-files.js';
import { findOnPath } from './render.js';

const promtool = findOnPath('promtool');
if (!promtool && process.env['CI'] !== 'true') {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! alert rules: promtool not found on the PATH — THE ALERTS' UNIT TESTS DID NOT RUN.\n!! Install Debian's prometheus package to run them; under CI=true this fails.\n${'!'.repeat(78)}\n\n`,
  );
}

const dir = mkdtempSync(join(tmpdir(), 'alert-rules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The rule groups of a PrometheusRule file, as a rule file promtool reads (JSON is YAML). */
function writeRuleFile(source: string, target: string): void {
  const [rule] = readDocuments(source) as { kind: string; spec: { groups: unknown[] } }[];
  expect(rule?.kind).toBe('PrometheusRule');
  writeFileSync(join(dir, target), JSON.stringify({ groups: rule?.spec.groups }));
}

function runPromtool(): { status: number; output: string } {
  try {
    const output = execFileSync(promtool as string, ['test', 'rules', 'alerts.test.yaml'], {
      cwd: dir,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    return { status: 0, output };
  } catch (error) {
    const failed = error as { status?: number; stdout?: string; stderr?: string };
    return { status: failed.status ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the alerts under promtool', () => {
  (promtool || process.env['CI'] === 'true' ? it : it.skip)(
    'count lag once per partition, page on a dead or absent app, a first circuit opening, a dead-lettered win and a fast spin error burn, and stay silent below their thresholds',
    () => {
      expect(promtool).toBeDefined();
      writeRuleFile('monitoring/alerts.yaml', 'alerts.rules.yaml');
      writeRuleFile('monitoring/slo-rules.yaml', 'slo.rules.yaml');
      copyFileSync(join(k8sRoot, 'monitoring/tests/alerts.test.yaml'), join(dir, 'alerts.test.yaml'));
      const run = runPromtool();
      expect({ status: run.status, output: run.output }).toEqual({
        status: 0,
        output: expect.stringContaining('SUCCESS'),
      });
    },
  );

  it('page on the absence of exactly the apps the PodMonitors scrape (their jobs are reelstream/<PodMonitor>)', () => {
    const monitors = (readDocuments('monitoring/pod-monitors.yaml') as { kind: string; metadata: { name: string } }[])
      .filter((document) => document.kind === 'PodMonitor')
      .map((monitor) => `reelstream/${monitor.metadata.name}`)
      .sort();
    const [alerts] = readDocuments('monitoring/alerts.yaml') as {
      spec: { groups: { rules: { alert?: string; expr: string }[] }[] };
    }[];
    const absent = alerts?.spec.groups.flatMap((group) => group.rules).find((rule) => rule.alert === 'ServiceAbsent');
    const jobs = [...(absent?.expr ?? '').matchAll(/job="([^"]+)"/g)].map((match) => match[1]).sort();
    expect(jobs).toEqual(monitors);
    expect(monitors).toHaveLength(4);
  });
});
