/**
 * Backups of the stateful engines as rendered: the PostgreSQL event store's WAL archive and daily
 * base backup (CloudNativePG, the production overlay) and EventStoreDB's file-copy backup and scavenge
 * (production-eventstoredb/maintenance), with the figures docs/runbooks/backup-and-restore.md derives
 * its RPO from.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parse } from 'yaml';
import { checkExpression } from './alert-expressions.js';
import { pointInTimeRecoveryProblems, postgresSeconds, workloadProblems } from './checks.js';
import { k8sRoot, readDocuments } from './manifest-files.js';
import { clusterOf, connection, type Endpoint } from './network-policy.js';
import { allContainersOf, findKubectl, podTemplateOf, render, splitImage, type Container } from './render.js';
import { schemaProblems, type K8sObject } from './schemas.js';

const PRODUCTION = 'overlays/production';
const MAINTENANCE = 'overlays/production-eventstoredb/maintenance';
const runbook = readFileSync(join(k8sRoot, '..', 'docs/runbooks/backup-and-restore.md'), 'utf8');
/** The RPO the runbook states for the PostgreSQL event store's object store, in seconds. */
const STATED_ARCHIVE_RPO_SECONDS = 60;

const kubectl = findKubectl();
const renders = new Map<string, K8sObject[]>();
const rendered = (dir: string): K8sObject[] => {
  if (!kubectl) throw new Error('kubectl is missing');
  const objects = renders.get(dir) ?? render(kubectl, dir);
  renders.set(dir, objects);
  return objects;
};
const find = (objects: readonly K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name) as K8sObject;
const stringDataOf = (file: string) =>
  ((readDocuments(file)[0] as K8sObject)['stringData'] ?? {}) as Record<string, string>;

interface CnpgSpec {
  backup: {
    retentionPolicy: string;
    barmanObjectStore: {
      destinationPath: string;
      s3Credentials: Record<string, { name: string; key: string }>;
      wal: { compression: string; encryption?: string };
      data: { compression: string; encryption?: string };
    };
  };
  postgresql: { parameters: Record<string, string> };
}

describe('the backups as rendered by kubectl kustomize', () => {
  if (!kubectl) {
    if (process.env['CI'] === 'true')
      it('needs kubectl under CI', () => {
        throw new Error('kubectl is missing from the PATH: the overlays cannot be rendered');
      });
    return;
  }

  describe('the PostgreSQL event store (production overlay): point-in-time recovery', () => {
    const objects = rendered(PRODUCTION);
    const cluster = () => structuredClone(find(objects, 'Cluster', 'reelstream-pg'));
    const scheduled = () => structuredClone(find(objects, 'ScheduledBackup', 'reelstream-pg-daily'));

    it('archives WAL and base backups to object storage, compressed and encrypted, with the key of the Secret template', () => {
      const spec = cluster()['spec'] as CnpgSpec;
      const store = spec.backup.barmanObjectStore;
      expect(store.destinationPath).toMatch(/^s3:\/\/[a-z0-9.-]+\/\S+$/);
      expect([store.wal.compression, store.data.compression]).toEqual(['gzip', 'gzip']);
      expect([store.wal.encryption, store.data.encryption]).toEqual(['AES256', 'AES256']);
      const template = stringDataOf(`${PRODUCTION}/postgres-backup-secret.template.yaml`);
      const templateName = (readDocuments(`${PRODUCTION}/postgres-backup-secret.template.yaml`)[0] as K8sObject)
        .metadata.name;
      const references = Object.values(store.s3Credentials);
      expect(references.length).toBe(3);
      for (const reference of references) {
        expect(reference.name).toBe(templateName);
        expect(Object.keys(template)).toContain(reference.key);
      }
      // The renders make no Secret: the administrator creates this one from the template.
      expect(objects.filter((o) => o.kind === 'Secret')).toEqual([]);
    });

    it('can be recovered to any point of the last 30 days, losing at most the archive timeout the runbook states', () => {
      expect(pointInTimeRecoveryProblems(objects, STATED_ARCHIVE_RPO_SECONDS)).toEqual([]);
      const spec = cluster()['spec'] as CnpgSpec;
      expect(spec.backup.retentionPolicy).toBe('30d');
      const timeout = spec.postgresql.parameters['archive_timeout'] ?? '';
      expect(postgresSeconds(timeout)).toBe(STATED_ARCHIVE_RPO_SECONDS);
      // The runbook derives its figures from these settings, and names them.
      const schedule = (scheduled()['spec'] as { schedule: string }).schedule;
      for (const setting of [
        `archive_timeout: '${timeout}'`,
        `'${schedule}'`,
        `retentionPolicy: ${spec.backup.retentionPolicy}`,
      ])
        expect([setting, runbook.includes(setting)]).toEqual([setting, true]);
    });

    it('gives a recovery Cluster, as the runbook writes it, that the schema accepts and that reads the archive the cluster writes', async () => {
      const block = /^ {3}```yaml\n([\s\S]*?)^ {3}```/m.exec(runbook.slice(runbook.indexOf('bootstrap.recovery')))?.[1];
      const change = parse(block ?? '') as {
        spec: {
          bootstrap: Record<string, unknown>;
          externalClusters: { name: string; barmanObjectStore: Record<string, unknown> }[];
          backup: { barmanObjectStore: { serverName: string } };
        };
      };
      const recovered = cluster();
      const spec = recovered['spec'] as Record<string, unknown> & CnpgSpec;
      const store = spec.backup.barmanObjectStore;
      spec['bootstrap'] = change.spec.bootstrap;
      spec['externalClusters'] = change.spec.externalClusters;
      Object.assign(store, change.spec.backup.barmanObjectStore);
      expect(await schemaProblems(recovered)).toEqual([]);
      const recovery = change.spec.bootstrap['recovery'] as {
        source: string;
        database: string;
        owner: string;
        recoveryTarget: { targetTime: string };
      };
      expect([recovery.database, recovery.owner]).toEqual(['reelstream', 'reelstream']);
      expect(Number.isNaN(Date.parse(recovery.recoveryTarget.targetTime))).toBe(false);
      const origin = change.spec.externalClusters.find((external) => external.name === recovery.source);
      const original = (cluster()['spec'] as CnpgSpec).backup.barmanObjectStore as Record<string, unknown>;
      expect(origin?.barmanObjectStore).toMatchObject({
        destinationPath: original['destinationPath'],
        endpointURL: original['endpointURL'],
        s3Credentials: original['s3Credentials'],
        serverName: cluster().metadata.name,
      });
      // The recovered cluster archives to a folder of its own.
      expect(store.destinationPath).toBe(original['destinationPath']);
      expect((store as Record<string, unknown>)['serverName']).not.toBe(cluster().metadata.name);
    });

    it('takes the first base backup at once, then one a day from a standby, owned by the schedule', () => {
      expect(scheduled()['spec']).toEqual({
        schedule: '0 30 0 * * *',
        cluster: { name: 'reelstream-pg' },
        method: 'barmanObjectStore',
        backupOwnerReference: 'self',
        immediate: true,
      });
      expect((cluster()['spec'] as { backup: { target: string } }).backup.target).toBe('prefer-standby');
    });

    it('reports a cluster without WAL archiving, uncompressed, with a long archive timeout, or without a daily scheduled backup', () => {
      const withCluster = (change: (spec: Record<string, unknown>) => void, extra: K8sObject[] = [scheduled()]) => {
        const changed = cluster();
        change(changed['spec'] as Record<string, unknown>);
        return pointInTimeRecoveryProblems([changed, ...extra], STATED_ARCHIVE_RPO_SECONDS);
      };
      expect(withCluster((spec) => delete spec['backup'])).toEqual([
        'Cluster reelstream-pg archives no WAL: spec.backup.barmanObjectStore has no destinationPath',
        'Cluster reelstream-pg has no backup retentionPolicy',
      ]);
      expect(
        withCluster((spec) => {
          const store = (spec as unknown as CnpgSpec).backup.barmanObjectStore as Partial<
            CnpgSpec['backup']['barmanObjectStore']
          >;
          delete store.wal;
          delete store.data;
          delete (spec as unknown as CnpgSpec).postgresql.parameters['archive_timeout'];
        }),
      ).toEqual([
        'Cluster reelstream-pg archives WAL uncompressed',
        'Cluster reelstream-pg takes base backups uncompressed',
        'Cluster reelstream-pg: archive_timeout 5min is above 60 s',
      ]);
      const noDaily = 'Cluster reelstream-pg has no ScheduledBackup taking a daily base backup to its object store';
      expect(withCluster(() => undefined, [])).toEqual([noDaily]);
      for (const change of [
        { schedule: '0 30 0 * * 0' },
        { schedule: '30 0 * * *' },
        { suspend: true },
        { method: 'volumeSnapshot' },
        { cluster: { name: 'another' } },
      ]) {
        const backup = scheduled();
        Object.assign(backup['spec'] as object, change);
        expect([change, withCluster(() => undefined, [backup])]).toEqual([change, [noDaily]]);
      }
    });

    it('validates the ScheduledBackup against its vendored schema, which refuses a misspelt field, a five-field schedule or an unknown method', async () => {
      expect(await schemaProblems(scheduled())).toEqual([]);
      const wrong = scheduled();
      const spec = wrong['spec'] as Record<string, unknown>;
      spec['schedule'] = '30 0 * * *';
      spec['method'] = 'snapshot';
      spec['imediate'] = true;
      expect(await schemaProblems(wrong)).toEqual([
        'unknown field spec.imediate',
        '/spec/schedule must match pattern "^\\S+( \\S+){5}$"',
        '/spec/method must be equal to one of the allowed values',
      ]);
    });

    it("refuses an unknown compression, a malformed retention policy or a misspelt field in the Cluster's backup", async () => {
      const wrong = cluster();
      const backup = (wrong['spec'] as { backup: Record<string, unknown> }).backup;
      backup['retentionPolicy'] = '30 days';
      (backup['barmanObjectStore'] as { wal: Record<string, unknown> }).wal['compression'] = 'zip';
      (backup['barmanObjectStore'] as Record<string, unknown>)['destinationPth'] = 's3://x/y';
      expect(await schemaProblems(wrong)).toEqual([
        'unknown field spec.backup.barmanObjectStore.destinationPth',
        '/spec/backup/barmanObjectStore/wal/compression must be equal to one of the allowed values',
        '/spec/backup/retentionPolicy must match pattern "^[1-9][0-9]*[dwm]$"',
      ]);
    });
  });

  describe('the backups\u2019 alerts (production overlay, backup-alerts.yaml)', () => {
    /** The engines' metrics the alerts read: CloudNativePG's exporter and kube-state-metrics. */
    const ENGINE_METRICS = new Set([
      'cnpg_pg_stat_archiver_last_failed_time',
      'cnpg_pg_stat_archiver_last_archived_time',
      'cnpg_collector_last_available_backup_timestamp',
      'kube_cronjob_status_last_successful_time',
    ]);
    interface Rule {
      alert: string;
      expr: string;
      labels: Record<string, string>;
      annotations: Record<string, string>;
    }
    const rulesOf = (dir: string) =>
      (
        find(rendered(dir), 'PrometheusRule', 'reelstream-backups')['spec'] as { groups: { rules: Rule[] }[] }
      ).groups.flatMap((group) => group.rules);

    it('alert when WAL archiving fails, the base backup or the EventStoreDB backup is over a day old, each linking this runbook', () => {
      const rules = rulesOf(PRODUCTION);
      expect(rules.map((rule) => [rule.alert, rule.labels['severity']])).toEqual([
        ['PostgresWalArchivingFailing', 'critical'],
        ['PostgresBaseBackupMissing', 'warning'],
        ['EventStoreBackupMissing', 'critical'],
      ]);
      for (const rule of rules) {
        expect([rule.alert, checkExpression(rule.expr, ENGINE_METRICS).problems]).toEqual([rule.alert, []]);
        expect(rule.annotations['runbook_url']).toMatch(/^https:\/\/.+\/docs\/runbooks\/backup-and-restore\.md$/);
        expect(runbook).toContain(rule.alert);
      }
      // A day between runs, and the alert only once a run is missed: over 24 h, under 48 h.
      for (const rule of rules.slice(1)) {
        const hours = Number(/> (\d+) \* 3600$/.exec(rule.expr.trim())?.[1]);
        expect([rule.alert, hours > 24 && hours < 48]).toEqual([rule.alert, true]);
      }
      // The EventStoreDB alert watches the maintenance CronJob by its namespace and name.
      const cronJob = find(rendered(MAINTENANCE), 'CronJob', 'eventstore-backup');
      expect(rules[2]?.expr).toContain(
        `{namespace="${cronJob.metadata.namespace}", cronjob="${cronJob.metadata.name}"}`,
      );
    });

    it('scrape the PostgreSQL instances on the metrics port the scrape policy lets in; the EventStoreDB overlay drops that PodMonitor', () => {
      const podMonitor = find(rendered(PRODUCTION), 'PodMonitor', 'reelstream-pg')['spec'] as {
        selector: { matchLabels: Record<string, string> };
        podMetricsEndpoints: { port: string }[];
      };
      expect(podMonitor.selector.matchLabels).toEqual({ 'cnpg.io/cluster': 'reelstream-pg' });
      expect(podMonitor.podMetricsEndpoints.map((endpoint) => endpoint.port)).toEqual(['metrics']);
      const scrape = find(rendered(PRODUCTION), 'NetworkPolicy', 'allow-metrics-scrape')['spec'] as {
        podSelector: object;
        ingress: { ports: { port: string }[] }[];
      };
      expect(scrape.podSelector).toEqual({});
      expect(scrape.ingress.flatMap((rule) => rule.ports.map((port) => port.port))).toEqual(['metrics']);
      expect(
        rendered('overlays/production-eventstoredb').filter(
          (o) => o.kind === 'PodMonitor' && o.metadata.name === 'reelstream-pg',
        ),
      ).toEqual([]);
    });
  });

  describe('EventStoreDB maintenance (production-eventstoredb/maintenance)', () => {
    const objects = rendered(MAINTENANCE);
    const backup = () => find(objects, 'CronJob', 'eventstore-backup');
    const scavenge = () => find(objects, 'CronJob', 'eventstore-scavenge');
    const cronJobs = () => [backup(), scavenge()];
    const scriptOf = (container: Container | undefined) => ((container?.['args'] ?? []) as string[]).join('\n');

    it('validates against the Kubernetes schema, all in the EventStoreDB namespace, and makes no Secret', async () => {
      const problems: string[] = [];
      for (const object of objects)
        problems.push(...(await schemaProblems(object)).map((p) => `${object.kind}/${object.metadata.name}: ${p}`));
      expect(problems).toEqual([]);
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}/${o.metadata.namespace ?? ''}`).sort()).toEqual([
        'CronJob/eventstore-backup/eventstore',
        'CronJob/eventstore-scavenge/eventstore',
        'NetworkPolicy/allow-maintenance-dns/eventstore',
        'NetworkPolicy/eventstore-backup/eventstore',
        'NetworkPolicy/eventstore-scavenge/eventstore',
        'ServiceAccount/eventstore-maintenance/eventstore',
      ]);
    });

    it('runs every container non-root on a read-only root, with no capabilities, its resources and a pinned image', () => {
      for (const cronJob of cronJobs()) {
        expect(workloadProblems(cronJob).filter((p) => !/Probe/.test(p))).toEqual([]);
        expect((cronJob['spec'] as { concurrencyPolicy: string }).concurrencyPolicy).toBe('Forbid');
        const pod = podTemplateOf(cronJob)?.spec as { serviceAccountName: string; securityContext: object };
        expect(pod.serviceAccountName).toBe('eventstore-maintenance');
        expect(pod.securityContext).not.toHaveProperty('fsGroup');
        for (const container of allContainersOf(cronJob)) {
          const security = container['securityContext'] as { readOnlyRootFilesystem?: boolean };
          expect([container.name, security.readOnlyRootFilesystem]).toEqual([container.name, true]);
          expect(splitImage(container.image)[1]).toMatch(/^\d+\.\d+\.\d+$/);
        }
      }
    });

    it('reads the credentials from the Secret templates only, the object-store key in the copy alone', () => {
      const templates = {
        'eventstore-ops': stringDataOf(`${MAINTENANCE}/ops-secret.template.yaml`),
        'eventstore-backup-store': stringDataOf(`${MAINTENANCE}/backup-store-secret.template.yaml`),
      } as Record<string, Record<string, string>>;
      const used: string[] = [];
      for (const cronJob of cronJobs()) {
        const volumes = (podTemplateOf(cronJob)?.spec['volumes'] ?? []) as {
          secret?: { secretName: string; items: { key: string }[] };
        }[];
        for (const volume of volumes)
          for (const item of volume.secret?.items ?? [])
            used.push(`${cronJob.metadata.name} ${volume.secret?.secretName}/${item.key}`);
        for (const container of allContainersOf(cronJob))
          for (const variable of (container['env'] ?? []) as {
            valueFrom?: { secretKeyRef?: { name: string; key: string } };
          }[])
            if (variable.valueFrom?.secretKeyRef)
              used.push(
                `${container.name} ${variable.valueFrom.secretKeyRef.name}/${variable.valueFrom.secretKeyRef.key}`,
              );
      }
      expect(used.sort()).toEqual([
        'copy eventstore-backup-store/ACCESS_KEY_ID',
        'copy eventstore-backup-store/SECRET_ACCESS_KEY',
        'eventstore-backup eventstore-ops/ca.crt',
        'eventstore-backup eventstore-ops/curlrc',
        'eventstore-scavenge eventstore-ops/ca.crt',
        'eventstore-scavenge eventstore-ops/curlrc',
      ]);
      for (const entry of used) {
        const [secret = '', key = ''] = entry.split(' ')[1]?.split('/') ?? [];
        expect([entry, Object.keys(templates[secret] ?? {})]).toEqual([entry, expect.arrayContaining([key])]);
      }
    });

    it("backs up a follower daily by EventStoreDB's documented order: follower checked, scavenge stopped, index checkpoints, index, checkpoints, chunks, then the completion mark", () => {
      const spec = backup()['spec'] as { schedule: string; timeZone: string };
      expect([spec.schedule, spec.timeZone]).toEqual(['0 1 * * *', 'Etc/UTC']);
      const containers = allContainersOf(backup());
      expect(containers.map((c) => c.name)).toEqual(['check-follower', 'stop-scavenge', 'copy']);
      expect(scriptOf(containers[0])).toMatch(
        /\/info"\)[\s\S]*"state" \*: \*"\(follower\|readonlyreplica\)"[\s\S]*exit 1/,
      );
      expect(scriptOf(containers[1])).toMatch(/-X DELETE "https:\/\/\$SOURCE_NODE:2113\/admin\/scavenge\/current"/);
      const steps = scriptOf(containers[2])
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => /^(copy |printf)/.test(line));
      expect(steps).toEqual([
        `copy index "$to/index" --include '*.chk'`,
        `copy index "$to/index" --exclude '*.chk'`,
        `copy . "$to" --include '/*.chk'`,
        `copy . "$to" --include '/chunk-*'`,
        `printf '%s\\n' "$JOB_NAME" | rclone rcat "$to/BACKUP-COMPLETE"`,
      ]);
      // The source: one node's claim, read-only, on that node's machine; the checks ask the same node.
      const pod = podTemplateOf(backup())?.spec as {
        volumes: { name: string; persistentVolumeClaim?: { claimName: string; readOnly?: boolean } }[];
        affinity: {
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              labelSelector: { matchLabels: Record<string, string> };
              topologyKey: string;
            }[];
          };
        };
      };
      expect(pod.volumes.find((v) => v.name === 'data')?.persistentVolumeClaim).toEqual({
        claimName: 'data-eventstore-1',
        readOnly: true,
      });
      expect(containers[2]?.['volumeMounts']).toContainEqual({
        name: 'data',
        mountPath: '/eventstore',
        readOnly: true,
      });
      expect(pod.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
        {
          labelSelector: { matchLabels: { 'statefulset.kubernetes.io/pod-name': 'eventstore-1' } },
          topologyKey: 'kubernetes.io/hostname',
        },
      ]);
      for (const container of containers.slice(0, 2))
        expect(container['env']).toEqual([
          { name: 'SOURCE_NODE', value: 'eventstore-1.eventstore.eventstore.svc.cluster.local' },
        ]);
    });

    it('scavenges every node in turn each week and is over before the next backup starts', () => {
      const spec = scavenge()['spec'] as {
        schedule: string;
        timeZone: string;
        jobTemplate: { spec: { activeDeadlineSeconds: number } };
      };
      expect([spec.schedule, spec.timeZone]).toEqual(['0 3 * * 0', 'Etc/UTC']);
      const [container] = allContainersOf(scavenge());
      const nodes = ((container?.['env'] ?? []) as { name: string; value: string }[])
        .find((e) => e.name === 'NODES')
        ?.value.split(/\s+/);
      expect(nodes).toEqual([0, 1, 2].map((n) => `eventstore-${n}.eventstore.eventstore.svc.cluster.local`));
      expect(scriptOf(container)).toMatch(
        /for node in \$NODES[\s\S]*-X POST "\$url\?threads=1"[\s\S]*while running "\$url"; do sleep 60; done[\s\S]*done\s*$/,
      );
      // Running while GET …/current names a scavenge: EventStoreDB answers 200 either way.
      expect(scriptOf(container)).toMatch(/call -f "\$1\/current"[\s\S]*grep -Eiq '"scavengeId" \*: \*"\[\^"\]\+"'/);
      const minutesOfDay = (schedule: string) => {
        const [minute = '', hour = ''] = schedule.split(' ');
        return Number(hour) * 60 + Number(minute);
      };
      const backupAt = minutesOfDay((backup()['spec'] as { schedule: string }).schedule);
      const untilBackup = ((backupAt - minutesOfDay(spec.schedule) + 1440) % 1440) * 60;
      expect(spec.jobTemplate.spec.activeDeadlineSeconds).toBeLessThanOrEqual(untilBackup);
      expect(spec.jobTemplate.spec.activeDeadlineSeconds).toBeGreaterThan(0);
    });

    it('lets the jobs open exactly what they need and take no connection', () => {
      const { cluster, pods } = clusterOf(objects);
      const node = (n: number): Endpoint => ({
        kind: 'pod',
        name: `eventstore-${n}`,
        namespace: 'eventstore',
        labels: { 'statefulset.kubernetes.io/pod-name': `eventstore-${n}` },
        ip: `10.244.1.${n + 1}`,
        ports: [{ containerPort: 2113 }],
      });
      const dns: Endpoint = {
        kind: 'pod',
        name: 'coredns',
        namespace: 'kube-system',
        labels: { 'k8s-app': 'kube-dns' },
        ip: '10.244.2.2',
        ports: [],
      };
      const store: Endpoint = { kind: 'external', name: 'object store', ip: '52.218.0.10' };
      const inCluster: Endpoint = { kind: 'external', name: 'a private address', ip: '10.1.2.3' };
      const backupPod = pods.get('eventstore-backup') as Endpoint;
      const scavengePod = pods.get('eventstore-scavenge') as Endpoint;
      const allowed = (from: Endpoint, to: Endpoint, port: number, protocol: 'TCP' | 'UDP' = 'TCP') =>
        `${from.name} → ${to.name}:${port}/${protocol} ${connection(cluster, from, to, port, protocol).allowed}`;
      expect([
        allowed(backupPod, node(1), 2113),
        allowed(backupPod, node(0), 2113),
        allowed(backupPod, node(1), 1112),
        allowed(backupPod, store, 443),
        allowed(backupPod, store, 80),
        allowed(backupPod, inCluster, 443),
        allowed(backupPod, dns, 53, 'UDP'),
        ...[0, 1, 2].map((n) => allowed(scavengePod, node(n), 2113)),
        allowed(scavengePod, store, 443),
        allowed(scavengePod, dns, 53, 'UDP'),
        allowed(node(1), backupPod, 8080),
        allowed(node(1), scavengePod, 8080),
      ]).toEqual([
        'eventstore-backup → eventstore-1:2113/TCP true',
        'eventstore-backup → eventstore-0:2113/TCP false',
        'eventstore-backup → eventstore-1:1112/TCP false',
        'eventstore-backup → object store:443/TCP true',
        'eventstore-backup → object store:80/TCP false',
        'eventstore-backup → a private address:443/TCP false',
        'eventstore-backup → coredns:53/UDP true',
        'eventstore-scavenge → eventstore-0:2113/TCP true',
        'eventstore-scavenge → eventstore-1:2113/TCP true',
        'eventstore-scavenge → eventstore-2:2113/TCP true',
        'eventstore-scavenge → object store:443/TCP false',
        'eventstore-scavenge → coredns:53/UDP true',
        'eventstore-1 → eventstore-backup:8080/TCP false',
        'eventstore-1 → eventstore-scavenge:8080/TCP false',
      ]);
    });
  });
});
