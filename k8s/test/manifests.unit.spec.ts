import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from '@jest/globals';
import { parseOperatorsJson, TopicPartitions, Topics } from '@reelstream/contracts';
import { parsePostgresUrl } from '@reelstream/platform-eventstore-postgres';
import { MAX_WORKER_ID } from '@reelstream/platform-ids';
import { MISSING_TOPIC_WAIT_MS } from '@reelstream/platform-messaging-kafka';
import { CAMPAIGN_BODY_LIMIT_BYTES } from '@reelstream/gateway-service';
import { loadOperators, parseEnv, shardCount } from '@reelstream/platform-config';
import { sandboxConfigFromEnv } from '@reelstream/sandbox-service';
import { processIdentityEnv, processIdentityOf } from '@reelstream/platform-runtime';
import {
  DIGEST_PATTERN,
  imageEntry,
  pinImageDigest,
  pinnedKustomization,
  renderedReference,
  UNPINNED_DIGEST,
} from '../../scripts/release/pin-image.js';
import {
  appImage,
  digestPinningProblems,
  ID_DRAWING_APPS,
  imageProblems,
  isWorkload,
  maxPodsOf,
  referenceProblems,
  replyPartitionProblems,
  REPLY_TOPIC_REQUESTERS,
  serviceProblems,
  workerIdRanges,
  workloadProblems,
} from './checks.js';
import { readKustomization, referencedPaths } from './kustomization.js';
import { k8sRoot, readDocuments, yamlFiles } from './manifest-files.js';
import { allContainersOf, containersOf, findKubectl, podTemplateOf, render, splitImage } from './render.js';
import { schemaProblems, type K8sObject } from './schemas.js';

/** A Kubernetes quantity (`64Mi`, `1Gi`, `1m` as nginx writes a megabyte) in bytes. */
function bytesOf(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|k|m|g)?$/i.exec(quantity);
  if (!match) return Number(quantity);
  const unit = { ki: 2 ** 10, mi: 2 ** 20, gi: 2 ** 30, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 }[
    (match[2] ?? '').toLowerCase() as 'ki'
  ];
  return Number(match[1]) * (unit ?? 1);
}

const PRODUCTION = 'overlays/production';
/** Production with EventStoreDB instead of PostgreSQL, built on the production overlay. */
const PRODUCTION_ESDB = 'overlays/production-eventstoredb';
const overlayDirs = ['overlays/dev', PRODUCTION, PRODUCTION_ESDB];
/** The image of the apps as rendered: the pinned tag, and in production the digest a release pinned. */
const appImagePattern = new RegExp(
  `(^|/)${appImage.name}:${appImage.tag.replace(/\./g, '\\.')}(@sha256:[0-9a-f]{64})?$`,
);
/**
 * The committed production overlay holds the unpinned placeholder (k8s/README.md, "Before
 * production"), which no cluster can run. The production renders are checked as a release leaves
 * them: on a copy of k8s/ whose production overlay `npm run release:pin` pinned to RELEASE_DIGEST
 * (production-eventstoredb is built on it); the committed overlay is checked to be refused.
 */
const RELEASE_DIGEST = `sha256:${createHash('sha256').update('k8s checks').digest('hex')}`;
const releaseRoot = mkdtempSync(join(tmpdir(), 'reelstream-k8s-release-'));
cpSync(k8sRoot, releaseRoot, { recursive: true, filter: (source) => source !== join(k8sRoot, 'test') });
pinImageDigest(join(releaseRoot, PRODUCTION, 'kustomization.yaml'), RELEASE_DIGEST);
afterAll(() => rmSync(releaseRoot, { recursive: true, force: true }));
const committedProductionKustomization = readFileSync(join(k8sRoot, PRODUCTION, 'kustomization.yaml'), 'utf8');
/** EventStoreDB's backup and scavenge, applied on their own in the EventStoreDB cluster's namespace. */
const ESDB_MAINTENANCE = `${PRODUCTION_ESDB}/maintenance`;
const kustomizationDirs = ['base', 'monitoring', 'analytics', ...overlayDirs, ESDB_MAINTENANCE];
const secretTemplate = 'base/operators-secret.template.yaml';
/** Templates of the Secrets the cluster's administrator creates outside kustomize (not applied). */
const secretTemplates = [
  secretTemplate,
  'analytics/postgres-reader-secret.template.yaml',
  `${PRODUCTION_ESDB}/eventstore-secret.template.yaml`,
  `${PRODUCTION_ESDB}/eventstore-reader-secret.template.yaml`,
  `${PRODUCTION}/postgres-backup-secret.template.yaml`,
  `${ESDB_MAINTENANCE}/ops-secret.template.yaml`,
  `${ESDB_MAINTENANCE}/backup-store-secret.template.yaml`,
];
/** The Secrets of the templates, by name. */
const templateSecrets = new Set(
  secretTemplates.flatMap((file) => (readDocuments(file) as K8sObject[]).map((secret) => secret.metadata.name)),
);
/**
 * The Secrets the engines' operators make for the objects of a render: CloudNativePG `<cluster>-app`
 * (the owner's credentials) and `<cluster>-ca`; Strimzi `<kafka>-cluster-ca-cert` and, per KafkaUser, `<user>`.
 */
function operatorSecrets(objects: readonly K8sObject[]): Set<string> {
  return new Set(
    objects.flatMap((o) =>
      o.kind === 'Cluster' && o.apiVersion === 'postgresql.cnpg.io/v1'
        ? [`${o.metadata.name}-app`, `${o.metadata.name}-ca`]
        : o.kind === 'Kafka'
          ? [`${o.metadata.name}-cluster-ca-cert`]
          : o.kind === 'KafkaUser'
            ? [o.metadata.name]
            : [],
    ),
  );
}
/** A Secret a render may refer to: one of its own, one of a template, or one an operator makes for its objects. */
const secretExists = (objects: readonly K8sObject[], name: string) =>
  find(objects, 'Secret', name) !== undefined || templateSecrets.has(name) || operatorSecrets(objects).has(name);

/** Each app, the container port its probes use, and the ConfigMap key that sets that port. */
const apps: Record<string, { probePort: string; portKey: string }> = {
  gateway: { probePort: 'http', portKey: 'GATEWAY_PORT' },
  'game-server': { probePort: 'http', portKey: 'GAME_PORT' },
  'bonus-ledger': { probePort: 'health', portKey: 'HEALTH_PORT' },
  'wallet-dispatcher': { probePort: 'health', portKey: 'HEALTH_PORT' },
  'operator-sandbox': { probePort: 'http', portKey: 'SANDBOX_PORT' },
};

// Every YAML file but the kustomizations and promtool's alert tests (alert-rules.unit.spec.ts runs those).
const manifestFiles = yamlFiles().filter(
  (file) => !file.endsWith('kustomization.yaml') && !file.startsWith('monitoring/tests/'),
);
const kubectl = findKubectl();
if (!kubectl && process.env['CI'] !== 'true') {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! k8s manifests: kubectl not found on the PATH — the OVERLAYS WERE NOT RENDERED OR CHECKED.\n!! Install kubectl to run those tests; under CI=true this fails.\n${'!'.repeat(78)}\n\n`,
  );
}
const renders = new Map<string, K8sObject[]>();
/** The overlay as `kubectl kustomize` renders it (once per run); production as a release pinned it. */
const rendered = (dir: string): K8sObject[] => {
  if (!kubectl) throw new Error('kubectl is missing');
  const objects = renders.get(dir) ?? render(kubectl, dir, dir === 'overlays/dev' ? k8sRoot : releaseRoot);
  renders.set(dir, objects);
  return objects;
};
const find = (objects: readonly K8sObject[], kind: string, name: string) =>
  objects.find((o) => o.kind === kind && o.metadata.name === name);
/** The workloads running reelstream's own apps (not the dev overlay's Kafka and EventStoreDB). */
const appWorkloads = (objects: readonly K8sObject[]) =>
  objects.filter((o) => isWorkload(o) && Object.hasOwn(apps, o.metadata.name));
const configOf = (objects: readonly K8sObject[]) =>
  (find(objects, 'ConfigMap', 'reelstream-config')?.['data'] ?? {}) as Record<string, string>;
/**
 * Files a workload's container (the first, or the one named) reads from Secrets: mounted path → Secret
 * and key, from secret volumes and the secret sources of projected volumes.
 */
/** The render with every id-drawing workload at `pods` pods: its autoscaler's maximum and its replica count. */
function withMaxReplicas(objects: readonly K8sObject[], pods: number): K8sObject[] {
  const scaled = structuredClone(objects) as K8sObject[];
  for (const object of scaled) {
    if (object.kind === 'HorizontalPodAutoscaler') (object['spec'] as { maxReplicas: number }).maxReplicas = pods;
    if (object.kind === 'StatefulSet' && (ID_DRAWING_APPS as readonly string[]).includes(object.metadata.name))
      (object['spec'] as { replicas?: number }).replicas = pods;
  }
  return scaled;
}

function secretFiles(workload: K8sObject, containerName?: string): Map<string, { secret: string; key: string }> {
  type Items = { key: string; path: string }[];
  const volumes = (podTemplateOf(workload)?.spec['volumes'] ?? []) as {
    name: string;
    secret?: { secretName: string; items?: Items };
    projected?: { sources: { secret?: { name: string; items?: Items } }[] };
  }[];
  const files = new Map<string, { secret: string; key: string }>();
  const container =
    containerName === undefined
      ? containersOf(workload)[0]
      : allContainersOf(workload).find((candidate) => candidate.name === containerName);
  for (const mount of (container?.['volumeMounts'] ?? []) as { name: string; mountPath: string }[]) {
    const volume = volumes.find((v) => v.name === mount.name);
    const secrets = [
      ...(volume?.secret ? [{ name: volume.secret.secretName, items: volume.secret.items }] : []),
      ...(volume?.projected?.sources ?? []).flatMap((source) => (source.secret ? [source.secret] : [])),
    ];
    for (const secret of secrets)
      for (const item of secret.items ?? [])
        files.set(`${mount.mountPath}/${item.path}`, { secret: secret.name, key: item.key });
  }
  return files;
}
const decodedSecret = (secret: K8sObject | undefined, key: string) =>
  Buffer.from(((secret?.['data'] ?? {}) as Record<string, string>)[key] ?? '', 'base64').toString('utf8');

describe('every YAML document under k8s/', () => {
  it('validates against the Kubernetes schema with no unknown fields (patch files after merging, in the renders)', async () => {
    const patchFiles = new Set(
      kustomizationDirs.flatMap((dir) =>
        (readKustomization(dir).patches ?? []).flatMap((p) => (p.path ? [`${dir}/${p.path}`] : [])),
      ),
    );
    const problems: string[] = [];
    for (const file of manifestFiles.filter((f) => !patchFiles.has(f))) {
      for (const document of readDocuments(file)) {
        const object = document as K8sObject;
        problems.push(
          ...(await schemaProblems(object)).map((p) => `${file} ${object.kind}/${object.metadata?.name}: ${p}`),
        );
      }
    }
    expect(manifestFiles.length).toBeGreaterThan(10);
    expect(problems).toEqual([]);
  });

  it('is used: listed by a kustomization, or the documented Secret template', () => {
    const listed = new Set(kustomizationDirs.flatMap((dir) => referencedPaths(dir).map((r) => r.path)));
    expect(manifestFiles.filter((file) => !listed.has(file) && !secretTemplates.includes(file))).toEqual([]);
  });
});

describe('kustomizations', () => {
  it.each(kustomizationDirs)('%s is well-formed and lists only files that exist', (dir) => {
    const paths = referencedPaths(dir);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.filter((p) => !p.exists).map((p) => p.path)).toEqual([]);
  });

  it('pin a tag or digest in every image they rewrite', () => {
    const entries = kustomizationDirs.flatMap((dir) => readKustomization(dir).images ?? []);
    expect(entries.length).toBeGreaterThan(0);
    const images = entries.map(
      (image) => `${image.newName ?? image.name}${image.digest ? `@${image.digest}` : `:${image.newTag ?? ''}`}`,
    );
    expect(images.flatMap(imageProblems)).toEqual([]);
  });

  it('give production a digest: the unpinned placeholder as committed, or the one a release pinned', () => {
    const digest = readKustomization(PRODUCTION).images?.find((image) => image.name === appImage.name)?.digest ?? '';
    expect([digest, digest === UNPINNED_DIGEST || DIGEST_PATTERN.test(digest)]).toEqual([digest, true]);
  });

  it('are pinned by release:pin, which sets only the digest and refuses anything but one', () => {
    const before = committedProductionKustomization.split('\n');
    const after = pinnedKustomization(committedProductionKustomization, RELEASE_DIGEST).split('\n');
    expect(after.filter((line) => !before.includes(line))).toEqual([`    digest: ${RELEASE_DIGEST}`]);
    expect(before.filter((line) => !after.includes(line))).toEqual(before.filter((line) => /^ {4}digest: /.test(line)));
    for (const wrong of ['0.1.0', 'sha256:abc', `${RELEASE_DIGEST.toUpperCase()}`, UNPINNED_DIGEST])
      expect(() => pinnedKustomization(committedProductionKustomization, wrong)).toThrow(/is not an image digest/);
  });
});

describe('the base configuration', () => {
  const config = (readDocuments('base/config.yaml')[0] as K8sObject)['data'] as Record<string, string>;

  it('points at Kafka and EventStoreDB and names the health and metrics ports', () => {
    expect(config['BUS_URL']).toMatch(/^kafka:\/\/[^/]+:\d+/);
    expect(config['EVENT_STORE_URL']).toMatch(/^esdb:\/\/[^/]+:\d+/);
    expect(config).toMatchObject({
      GATEWAY_PORT: '8080',
      GAME_PORT: '8081',
      SANDBOX_PORT: '8082',
      HEALTH_PORT: '9090',
      OTEL_METRICS_EXPORTER: 'prometheus',
      OTEL_EXPORTER_PROMETHEUS_PORT: '9464',
    });
    expect(Object.keys(config)).not.toContain('OPERATORS_JSON');
  });

  it('ships the operators Secret only as a template the apps refuse until it is filled in', () => {
    const [template] = readDocuments(secretTemplate) as K8sObject[];
    const json = (template?.['stringData'] as Record<string, string>)['OPERATORS_JSON'] ?? '';
    expect(template?.metadata.name).toBe('reelstream-operators');
    expect(Array.isArray(JSON.parse(json))).toBe(true);
    expect(() => parseOperatorsJson(json)).toThrow(/apiTokenSha256/);
  });
});

describe('the overlays rendered by kubectl kustomize', () => {
  if (!kubectl) {
    if (process.env['CI'] === 'true')
      it('needs kubectl under CI', () => {
        throw new Error('kubectl is missing from the PATH: the overlays cannot be rendered');
      });
    return;
  }

  describe.each(overlayDirs)('the %s render', (dir) => {
    it('validates every resulting object against the Kubernetes schema', async () => {
      const problems: string[] = [];
      for (const object of rendered(dir))
        problems.push(...(await schemaProblems(object)).map((p) => `${object.kind}/${object.metadata.name}: ${p}`));
      expect(problems).toEqual([]);
    });

    it('puts every namespaced object in reelstream, once', () => {
      const objects = rendered(dir);
      expect(
        objects
          .filter((o) => o.kind !== 'Namespace' && o.metadata.namespace !== 'reelstream')
          .map((o) => `${o.kind}/${o.metadata.name}`),
      ).toEqual([]);
      const keys = objects.map((o) => `${o.kind}/${o.metadata.name}`);
      expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    });

    it('gives every workload probes, resources and a locked-down securityContext', () => {
      const workloads = rendered(dir).filter(isWorkload);
      expect(workloads.length).toBeGreaterThanOrEqual(4);
      expect(workloads.flatMap(workloadProblems)).toEqual([]);
    });

    it('runs each app from the pinned image with its own main.js, config, operators secret, ports and scrape annotations', () => {
      const objects = rendered(dir);
      const config = configOf(objects);
      const appDeployments = appWorkloads(objects);
      expect(appDeployments.map((d) => d.metadata.name).sort()).toEqual(
        [
          'bonus-ledger',
          'game-server',
          'gateway',
          'wallet-dispatcher',
          ...(dir === 'overlays/dev' ? ['operator-sandbox'] : []),
        ].sort(),
      );
      for (const deployment of appDeployments) {
        const name = deployment.metadata.name;
        const expected = apps[name];
        if (!expected) throw new Error(`unexpected Deployment ${name}`);
        const [container] = containersOf(deployment);
        const env = (container?.['env'] ?? []) as {
          name: string;
          value?: string;
          valueFrom?: { secretKeyRef?: { name: string; key: string } };
        }[];
        const ports = (container?.['ports'] ?? []) as { name: string; containerPort: number }[];
        const probe = container?.['readinessProbe'] as { httpGet: { path: string; port: string } };
        const liveness = container?.['livenessProbe'] as { httpGet: { path: string; port: string } };

        expect(container?.image).toMatch(appImagePattern);
        expect(container?.['command']).toEqual(['node', `dist/apps/${name}/main.js`]);
        expect(container?.['envFrom']).toEqual([{ configMapRef: { name: 'reelstream-config' } }]);
        expect(env.find((e) => e.name === 'OTEL_SERVICE_NAME')?.value).toBe(name);
        // Credentials come as mounted files; from the environment only the dev overlay's sandbox its admin
        // token and, on PostgreSQL, the apps the password the `pg` client reads (PGPASSWORD).
        expect(env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name)).toEqual(
          name === 'operator-sandbox' ? ['SANDBOX_ADMIN_TOKEN'] : dir === PRODUCTION ? ['PGPASSWORD'] : [],
        );
        for (const ref of env.flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef] : [])))
          expect([ref.name, secretExists(objects, ref.name)]).toEqual([ref.name, true]);
        const operators = secretFiles(deployment).get(config['OPERATORS_FILE'] ?? '');
        expect(operators?.key).toBe('OPERATORS_JSON');
        expect(secretExists(objects, operators?.secret ?? '')).toBe(true);
        expect([probe.httpGet, liveness.httpGet]).toEqual([
          { path: '/readyz', port: expected.probePort },
          { path: '/healthz', port: expected.probePort },
        ]);
        expect(String(ports.find((p) => p.name === expected.probePort)?.containerPort)).toBe(config[expected.portKey]);
        expect(ports.find((p) => p.name === 'metrics')?.containerPort).toBe(9464);
        expect(podTemplateOf(deployment)?.metadata?.annotations).toMatchObject({
          'prometheus.io/scrape': 'true',
          'prometheus.io/port': config['OTEL_EXPORTER_PROMETHEUS_PORT'],
        });
      }
    });

    it('drains before closing: preStop sleep, readiness out within SHUTDOWN_DRAIN_MS, grace above sleep + drain + stop', () => {
      const objects = rendered(dir);
      const drainSeconds = Number(configOf(objects)['SHUTDOWN_DRAIN_MS']) / 1000;
      expect(drainSeconds).toBeGreaterThan(0);
      for (const workload of appWorkloads(objects).filter((w) => w.metadata.name !== 'operator-sandbox')) {
        const [container] = containersOf(workload);
        // The image has no shell and no coreutils: preStop waits with Node itself.
        const preStop = (container?.['lifecycle'] as { preStop?: { exec?: { command?: string[] } } } | undefined)
          ?.preStop?.exec?.command;
        expect(preStop?.slice(0, 2)).toEqual(['node', '-e']);
        const sleep = Number(/^setTimeout\(\(\) => \{\}, (\d+)\)$/.exec(preStop?.[2] ?? '')?.[1]) / 1000;
        const readiness = container?.['readinessProbe'] as { periodSeconds: number; failureThreshold: number };
        const grace = podTemplateOf(workload)?.spec['terminationGracePeriodSeconds'] as number;
        // runService gives the stop sequence 25 s after the drain (drainTimeoutMs).
        expect({
          name: workload.metadata.name,
          sleep,
          readinessOutWithinDrain: readiness.periodSeconds * readiness.failureThreshold <= drainSeconds,
          graceEnough: grace > sleep + drainSeconds + 25,
        }).toEqual({ name: workload.metadata.name, sleep: 5, readinessOutWithinDrain: true, graceEnough: true });
      }
    });

    it('lets a starting app look for its Kafka topics (while the kafka-topics Job makes them) within its startup probe', () => {
      for (const workload of appWorkloads(rendered(dir)).filter((w) => w.metadata.name !== 'operator-sandbox')) {
        const startup = containersOf(workload)[0]?.['startupProbe'] as {
          periodSeconds: number;
          failureThreshold: number;
        };
        const windowMs = startup.periodSeconds * startup.failureThreshold * 1_000;
        // 10 s for what a start does besides: the event store, the other topics, the first join.
        expect([workload.metadata.name, windowMs >= MISSING_TOPIC_WAIT_MS + 10_000]).toEqual([
          workload.metadata.name,
          true,
        ]);
      }
    });

    it("requests enough CPU that the autoscalers' 70 % means load (at least 250m, at most the limit)", () => {
      const millis = (cpu: string) => (cpu.endsWith('m') ? Number(cpu.slice(0, -1)) : Number(cpu) * 1000);
      for (const workload of appWorkloads(rendered(dir)).filter((w) => w.metadata.name !== 'operator-sandbox')) {
        const resources = containersOf(workload)[0]?.['resources'] as {
          requests: { cpu: string };
          limits: { cpu: string };
        };
        expect([workload.metadata.name, millis(resources.requests.cpu) >= 250]).toEqual([workload.metadata.name, true]);
        expect(millis(resources.requests.cpu)).toBeLessThanOrEqual(millis(resources.limits.cpu));
      }
    });

    it('has Services that select existing pods and target ports those pods expose', () => {
      const objects = rendered(dir);
      const services = objects.filter((o) => o.kind === 'Service');
      expect(services.length).toBeGreaterThanOrEqual(4);
      expect(services.flatMap((service) => serviceProblems(service, objects))).toEqual([]);
    });

    it('points disruption budgets, autoscalers and ingresses at objects that exist', () => {
      const objects = rendered(dir);
      expect(objects.flatMap((object) => referenceProblems(object, objects))).toEqual([]);
      for (const workload of appWorkloads(objects)) {
        const selector = (workload['spec'] as { selector: { matchLabels: Record<string, string> } }).selector
          .matchLabels;
        const budget = objects.find(
          (o) =>
            o.kind === 'PodDisruptionBudget' &&
            JSON.stringify((o['spec'] as { selector: unknown }).selector) === JSON.stringify({ matchLabels: selector }),
        );
        if (workload.metadata.name !== 'operator-sandbox') expect(budget?.metadata.name).toBe(workload.metadata.name);
      }
      expect(
        ['gateway', 'game-server', 'wallet-dispatcher'].map(
          (name) => find(objects, 'HorizontalPodAutoscaler', name)?.metadata.name,
        ),
      ).toEqual(['gateway', 'game-server', 'wallet-dispatcher']);
    });

    it("scales the wallet-dispatcher on its request and cancel groups' lag, and leaves its count to the autoscaler", () => {
      const objects = rendered(dir);
      const dispatcher = find(objects, 'HorizontalPodAutoscaler', 'wallet-dispatcher')?.['spec'] as {
        metrics: {
          type: string;
          external?: { metric: { name: string; selector: unknown }; target: { type: string; averageValue: string } };
        }[];
      };
      expect(dispatcher.metrics.map((metric) => metric.type)).toEqual(['External', 'Resource']);
      expect(dispatcher.metrics[0]?.external).toEqual({
        metric: {
          name: 'reelstream_consumer_group_lag',
          selector: {
            matchExpressions: [
              { key: 'group', operator: 'In', values: ['wallet-dispatcher', 'wallet-dispatcher.cancels'] },
            ],
          },
        },
        target: { type: 'AverageValue', averageValue: '200' },
      });
      // A count in the workload would be put back by every apply, under the autoscaler's feet.
      expect((find(objects, 'StatefulSet', 'wallet-dispatcher')?.['spec'] as { replicas?: number }).replicas).toBe(
        dir === 'overlays/dev' ? 1 : undefined,
      );
    });
  });

  describe.each(overlayDirs)('worker ids in the %s render', (dir) => {
    it('give every pod that draws ids its own worker id: disjoint ranges within 0–1023, from the pod index', () => {
      const { ranges, problems } = workerIdRanges(rendered(dir), MAX_WORKER_ID);
      expect(problems).toEqual([]);
      expect(ranges.map((range) => range.workload).sort()).toEqual([...ID_DRAWING_APPS].sort());
      // Each workload's range holds 248 pods (ADR 0039), whatever its autoscaler allows today.
      const bases = Object.fromEntries(ranges.map((range) => [range.workload, range.base]));
      expect(bases).toEqual({ gateway: 32, 'game-server': 280, 'bonus-ledger': 528, 'wallet-dispatcher': 776 });
      expect(
        workerIdRanges(withMaxReplicas(rendered(dir), 248), MAX_WORKER_ID).ranges.map((range) => range.last),
      ).toEqual(expect.arrayContaining([279, 527, 775, 1023]));
      expect(workerIdRanges(withMaxReplicas(rendered(dir), 248), MAX_WORKER_ID).problems).toEqual([]);
      // The runtime takes the last pod of each range as it is configured.
      for (const range of ranges) {
        const env = parseEnv(processIdentityEnv, {
          WORKER_ID_BASE: String(range.base),
          POD_INDEX: String(range.maxPods - 1),
        });
        expect(processIdentityOf('gateway', env, `${range.workload}-${range.maxPods - 1}`).workerId).toBe(range.last);
      }
    });

    it('let every pod that asks on a reply topic read a partition of its own: no requester outgrows its topic', () => {
      const partitionsOf = (topic: string) => TopicPartitions[topic] ?? 0;
      const objects = rendered(dir);
      expect(Object.keys(REPLY_TOPIC_REQUESTERS).sort()).toEqual([Topics.bonusReplies, Topics.walletReplies]);
      expect(replyPartitionProblems(objects, partitionsOf)).toEqual([]);
      expect(replyPartitionProblems(withMaxReplicas(objects, 65), partitionsOf)).toEqual([
        'gateway: up to 65 pods ask on bonus.replies, which has 64 partitions',
        'game-server: up to 65 pods ask on wallet.replies, which has 64 partitions',
      ]);
    });
  });

  describe('the dev overlay', () => {
    const objects = rendered('overlays/dev');

    it('runs one replica of every app plus the operator sandbox on 8082', () => {
      const deployments = appWorkloads(objects);
      expect(deployments.map((d) => [d.metadata.name, (d['spec'] as { replicas?: number }).replicas]).sort()).toEqual(
        ['bonus-ledger', 'game-server', 'gateway', 'operator-sandbox', 'wallet-dispatcher'].map((name) => [name, 1]),
      );
      const sandbox = find(objects, 'Service', 'operator-sandbox')?.['spec'] as {
        ports: { name: string; port: number }[];
      };
      expect(sandbox.ports.find((p) => p.name === 'http')?.port).toBe(8082);
    });

    it('generates a demo operator the apps accept, with callbacks going to the sandbox', () => {
      // kustomize names a generated Secret after its content and rewrites the references to it.
      const generated = objects.filter(
        (o) => o.kind === 'Secret' && o.metadata.name.startsWith('reelstream-operators-'),
      );
      expect(generated).toHaveLength(1);
      for (const workload of appWorkloads(objects))
        expect(secretFiles(workload).get(configOf(objects)['OPERATORS_FILE'] ?? '')?.secret).toBe(
          generated[0]?.metadata.name,
        );
      const operators = parseOperatorsJson(decodedSecret(generated[0], 'OPERATORS_JSON'));
      expect(operators.length).toBeGreaterThan(0);
      for (const operator of operators)
        expect(new URL(operator.callbackUrl).host).toBe(`operator-sandbox:${configOf(objects)['SANDBOX_PORT']}`);
    });

    it('starts under its NODE_ENV=production: the apps accept the demo operator and the sandbox its bind and admin token', () => {
      const config = configOf(objects);
      expect(config['NODE_ENV']).toBe('production');
      const dir = mkdtempSync(join(tmpdir(), 'k8s-operators-'));
      try {
        const file = join(dir, 'operators.json');
        const generated = objects.find(
          (o) => o.kind === 'Secret' && o.metadata.name.startsWith('reelstream-operators-'),
        );
        writeFileSync(file, decodedSecret(generated, 'OPERATORS_JSON'));
        const env = { ...config, OPERATORS_FILE: file };
        expect(loadOperators(env, () => []).operators.map((operator) => operator.signatureScheme)).toEqual([
          'timestamp.body',
        ]);
        const sandbox = find(objects, 'Deployment', 'operator-sandbox') as K8sObject;
        const sandboxEnv: Record<string, string | undefined> = { ...env, DATA_DIR: dir };
        for (const entry of (containersOf(sandbox)[0]?.['env'] ?? []) as {
          name: string;
          value?: string;
          valueFrom?: { secretKeyRef?: { name: string; key: string } };
        }[]) {
          const ref = entry.valueFrom?.secretKeyRef;
          const secret = objects.find((o) => o.kind === 'Secret' && o.metadata.name === ref?.name);
          sandboxEnv[entry.name] = ref ? decodedSecret(secret, ref.key) : entry.value;
        }
        expect(sandboxConfigFromEnv(sandboxEnv).config).toMatchObject({ host: '0.0.0.0' });
        expect(sandboxConfigFromEnv(sandboxEnv).config.adminToken?.length).toBeGreaterThanOrEqual(16);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('brings the Kafka and EventStoreDB the base configuration points at', () => {
      const config = configOf(objects);
      const busHost = new URL(config['BUS_URL'] ?? '').host;
      const storeHost = new URL(config['EVENT_STORE_URL'] ?? '').host;
      const servicePort = (name: string) =>
        (find(objects, 'Service', name)?.['spec'] as { ports: { port: number }[] } | undefined)?.ports[0]?.port;
      expect(busHost).toBe(`kafka:${servicePort('kafka')}`);
      expect(storeHost).toBe(`eventstore:${servicePort('eventstore')}`);
    });
  });

  describe.each([PRODUCTION, PRODUCTION_ESDB])('the %s overlay', (dir) => {
    const objects = rendered(dir);
    const podWorkloads = (all: readonly K8sObject[]) => all.filter((object) => podTemplateOf(object) !== undefined);

    it('runs every container of every workload by digest, the one release:pin set', () => {
      const workloads = podWorkloads(objects);
      expect(new Set(workloads.map((workload) => workload.kind))).toEqual(new Set(['StatefulSet', 'Job', 'CronJob']));
      expect(workloads.flatMap(digestPinningProblems)).toEqual([]);
      expect([...new Set(workloads.flatMap((workload) => allContainersOf(workload).map((c) => c.image)))]).toEqual([
        renderedReference({ ...imageEntry(committedProductionKustomization), digest: RELEASE_DIGEST }),
      ]);
    });

    it('is refused as committed: every container is on the unpinned placeholder until a release pins it', () => {
      if (!kubectl) throw new Error('kubectl is missing');
      const workloads = podWorkloads(render(kubectl, dir));
      const containers = workloads.flatMap(allContainersOf);
      expect(containers.length).toBeGreaterThan(0);
      expect(workloads.flatMap(digestPinningProblems)).toHaveLength(containers.length);
      expect(new Set(containers.map((container) => container.image.split('@')[1]))).toEqual(new Set([UNPINNED_DIGEST]));
    });

    it("links every alert's runbook under the one repository URL of runbook-links.yaml, none left on the placeholder", () => {
      const [links] = readDocuments('overlays/production/runbook-links.yaml') as K8sObject[];
      const repositoryUrl = ((links?.['data'] ?? {}) as Record<string, string>)['repositoryUrl'] ?? '';
      expect(repositoryUrl).toMatch(/^https:\/\/.+\/$/);
      const urls = objects
        .filter((object) => object.kind === 'PrometheusRule')
        .flatMap(
          (object) => (object['spec'] as { groups: { rules: { annotations?: Record<string, string> }[] }[] }).groups,
        )
        .flatMap((group) => group.rules.flatMap((rule) => rule.annotations?.['runbook_url'] ?? []));
      // The alerts and the SLO burn-rate rules.
      expect(urls.length).toBeGreaterThanOrEqual(20);
      for (const url of urls)
        expect(url).toMatch(
          new RegExp(`^${repositoryUrl.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}docs/runbooks/[a-z0-9-]+\\.md$`),
        );
      // The ConfigMap is kustomize's alone: it is not applied.
      expect(find(objects, 'ConfigMap', 'reelstream-runbook-links')).toBeUndefined();
    });

    it('runs at least three of every app: the bonus-ledger fixed, the others autoscaled from three', () => {
      expect((find(objects, 'StatefulSet', 'bonus-ledger')?.['spec'] as { replicas: number }).replicas).toBe(3);
      for (const name of ['gateway', 'game-server', 'wallet-dispatcher'])
        expect((find(objects, 'HorizontalPodAutoscaler', name)?.['spec'] as { minReplicas: number }).minReplicas).toBe(
          3,
        );
      expect(find(objects, 'Deployment', 'operator-sandbox')).toBeUndefined();
    });

    it('exposes the gateway and the launch host through an Ingress with TLS', () => {
      const ingress = find(objects, 'Ingress', 'reelstream')?.['spec'] as {
        tls: { secretName: string; hosts: string[] }[];
        rules: { host: string; http: { paths: { backend: { service: { name: string } } }[] } }[];
      };
      expect(ingress.tls[0]?.secretName).toBe('reelstream-tls');
      expect(ingress.rules.map((rule) => rule.http.paths[0]?.backend.service.name)).toEqual(['gateway', 'game-server']);
      expect(new URL(configOf(objects)['LAUNCH_BASE_URL'] ?? '').host).toBe(ingress.rules[1]?.host);
    });

    it("reads Kafka's password and CA as files of the Strimzi Secrets, every other credential from a mounted Secret too", () => {
      const config = configOf(objects);
      const fileSettings = Object.entries(config).filter(([key]) => key.endsWith('_FILE'));
      expect(fileSettings.map(([key]) => key).sort()).toEqual(
        [
          'KAFKA_SASL_PASSWORD_FILE',
          'KAFKA_TLS_CA_FILE',
          'OPERATORS_FILE',
          ...(dir === PRODUCTION_ESDB ? ['EVENTSTORE_PASSWORD_FILE', 'EVENTSTORE_TLS_CA_FILE'] : []),
        ].sort(),
      );
      expect(Object.keys(config).filter((key) => /PASSWORD$|SECRET|TOKEN|OPERATORS_JSON/.test(key))).toEqual([]);
      const kafka = find(objects, 'Kafka', 'reelstream-kafka') as K8sObject;
      const user = find(objects, 'KafkaUser', config['KAFKA_SASL_USERNAME'] ?? '') as K8sObject;
      expect(user.metadata.labels?.['strimzi.io/cluster']).toBe(kafka.metadata.name);
      const strimziFiles = {
        KAFKA_SASL_PASSWORD_FILE: { secret: user.metadata.name, key: 'password' },
        KAFKA_TLS_CA_FILE: { secret: `${kafka.metadata.name}-cluster-ca-cert`, key: 'ca.crt' },
      };
      const topicsJob = find(objects, 'Job', 'kafka-topics') as K8sObject;
      for (const workload of [...appWorkloads(objects), topicsJob]) {
        const files = secretFiles(workload);
        expect([workload.metadata.name, config['KAFKA_SASL_PASSWORD_FILE'], config['KAFKA_TLS_CA_FILE']]).toEqual([
          workload.metadata.name,
          '/etc/reelstream/kafka/sasl-password',
          '/etc/reelstream/kafka/ca.crt',
        ]);
        expect(Object.fromEntries(Object.keys(strimziFiles).map((key) => [key, files.get(config[key] ?? '')]))).toEqual(
          strimziFiles,
        );
      }
      for (const workload of appWorkloads(objects)) {
        const files = secretFiles(workload);
        expect([
          workload.metadata.name,
          fileSettings.filter(([, path]) => !files.has(path)).map(([key]) => key),
        ]).toEqual([workload.metadata.name, []]);
        for (const file of files.values())
          expect([file.secret, secretExists(objects, file.secret)]).toEqual([file.secret, true]);
      }
      expect(config['KAFKA_AUTO_CREATE_TOPICS']).toBe('false');
      // The bootstrap Service Strimzi makes for the cluster, on the TLS listener with SCRAM-SHA-512.
      const listener = (kafka['spec'] as { kafka: { listeners: Record<string, unknown>[] } }).kafka.listeners[0];
      expect(config['BUS_URL']).toBe(
        `kafka://${kafka.metadata.name}-kafka-bootstrap.reelstream.svc:${String(listener?.['port'])}`,
      );
      expect(listener).toMatchObject({ tls: true, authentication: { type: config['KAFKA_SASL_MECHANISM'] } });
    });

    it('splits the round outbox and the bonus relay into shards the services accept', () => {
      const config = configOf(objects);
      for (const variable of ['ROUND_OUTBOX_SHARDS', 'BONUS_RELAY_SHARDS'])
        expect([variable, shardCount().parse(config[variable])]).toEqual([variable, 8]);
    });

    it('says the replication of the Kafka topics instead of deriving it from the brokers that answer', () => {
      expect(configOf(objects)).toMatchObject({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' });
    });

    it('runs Kafka in KRaft mode on three controller+broker nodes, three replicas and two in sync, no auto-created topics', () => {
      const kafka = find(objects, 'Kafka', 'reelstream-kafka') as K8sObject;
      const spec = (kafka['spec'] as { kafka: { config: Record<string, unknown>; authorization: { type: string } } })
        .kafka;
      expect(kafka.metadata.annotations).toMatchObject({
        'strimzi.io/node-pools': 'enabled',
        'strimzi.io/kraft': 'enabled',
      });
      expect(spec.config).toMatchObject({
        'default.replication.factor': 3,
        'min.insync.replicas': 2,
        'offsets.topic.replication.factor': 3,
        'transaction.state.log.replication.factor': 3,
        'auto.create.topics.enable': false,
      });
      expect(spec.authorization.type).toBe('simple');
      // The brokers' defaults are the apps' own (KAFKA_REPLICATION_FACTOR, KAFKA_MIN_INSYNC_REPLICAS).
      const config = configOf(objects);
      expect([spec.config['default.replication.factor'], spec.config['min.insync.replicas']].map(String)).toEqual([
        config['KAFKA_REPLICATION_FACTOR'],
        config['KAFKA_MIN_INSYNC_REPLICAS'],
      ]);
      const pools = objects.filter((o) => o.kind === 'KafkaNodePool');
      expect(pools.map((pool) => [pool.metadata.labels?.['strimzi.io/cluster'], pool['spec']])).toEqual([
        [kafka.metadata.name, expect.objectContaining({ replicas: 3, roles: ['controller', 'broker'] })],
      ]);
    });

    it("gives the apps' Kafka user the ACLs of every platform topic, dead-letter topic and consumer group", () => {
      const user = find(objects, 'KafkaUser', 'reelstream')?.['spec'] as {
        authentication: { type: string };
        authorization: {
          acls: { resource: { type: string; name?: string; patternType?: string }; operations: string[] }[];
        };
      };
      expect(user.authentication.type).toBe('scram-sha-512');
      const allowed = (type: string, name: string) =>
        new Set(
          user.authorization.acls
            .filter(
              ({ resource }) =>
                resource.type === type &&
                (resource.patternType === 'prefix'
                  ? name.startsWith(resource.name ?? '')
                  : resource.name === name || type === 'cluster'),
            )
            .flatMap((acl) => acl.operations),
        );
      const topics = Object.values(Topics).flatMap((topic) => [topic, `${topic}.dlq`]);
      for (const topic of topics)
        expect([
          topic,
          ['Describe', 'Read', 'Write', 'Create'].filter((op) => !allowed('topic', topic).has(op)),
        ]).toEqual([topic, []]);
      // The groups of libs/bonus/service/src/command-consumer.ts, libs/wallet/application/src/subscriptions.ts
      // and webhook-redrive.ts, the gateway's limits group and the game-server's shares group
      // (GATEWAY_LIMITS_GROUP, GAME_SERVER_SHARES_GROUP of libs/contracts/src/topics.ts), and a reply group
      // (replyGroupId of messaging-kafka: reply.<instance>.<topic>).
      const groups = [
        'bonus-ledger',
        'gateway',
        'game-server',
        'wallet-dispatcher',
        'wallet-dispatcher.cancels',
        'wallet-dispatcher.delayed',
        'wallet-dispatcher.webhooks',
        'wallet-dispatcher.webhooks-redrive',
        `reply.gateway-gateway-0.${Topics.bonusReplies}`,
      ];
      for (const group of groups)
        expect([group, ['Describe', 'Read'].filter((op) => !allowed('group', group).has(op))]).toEqual([group, []]);
      expect(allowed('group', 'someone-else').size).toBe(0);
      expect(allowed('topic', 'other.topic').size).toBe(0);
      expect([...allowed('cluster', 'kafka-cluster')].sort()).toEqual(['Describe', 'IdempotentWrite']);
    });

    it('creates the Kafka topics with a Job running the bundled kafka-topics CLI', () => {
      const job = find(objects, 'Job', 'kafka-topics') as K8sObject;
      const [container] = containersOf(job);
      expect(container?.['command']).toEqual(['node', 'dist/apps/platform/kafka-topics.js', 'create']);
      expect(container?.image).toMatch(new RegExp(`(^|/)${appImage.name}:`));
      expect(workloadProblems(job).filter((p) => !/Probe/.test(p))).toEqual([]);
    });

    describe('the daily reports CronJob', () => {
      const cronJob = () => find(objects, 'CronJob', 'reelstream-daily-reports') as K8sObject;
      const CLI = ['node', 'dist/apps/reelstream-cli/main.js'];
      const steps = () =>
        allContainersOf(cronJob()).map((container) => ({
          name: container.name,
          command: container['command'],
          args: container['args'],
        }));

      it('runs daily at 12:30 UTC, one run at a time, every container locked down like the apps', () => {
        const spec = cronJob()['spec'] as Record<string, unknown>;
        expect(spec).toMatchObject({ schedule: '30 12 * * *', timeZone: 'Etc/UTC', concurrencyPolicy: 'Forbid' });
        expect(workloadProblems(cronJob()).filter((p) => !/Probe/.test(p))).toEqual([]);
        for (const container of allContainersOf(cronJob())) expect(container.image).toMatch(appImagePattern);
      });

      it('exports rounds then transactions with a checkpoint on the reports volume, then writes the dated reports', () => {
        const exportOf = (kind: string) => ({
          name: `export-${kind}`,
          command: CLI,
          args: [
            'export',
            kind,
            '--to',
            'today',
            '--checkpoint',
            `/reports/checkpoints/${kind}.json`,
            '--out',
            '/reports/{yesterday}/',
            '--no-progress',
          ],
        });
        expect(steps()).toEqual([
          exportOf('rounds'),
          exportOf('transactions'),
          {
            name: 'reports',
            command: CLI,
            args: [
              'replay',
              '--from',
              'yesterday',
              '--to',
              'today',
              '--format',
              'csv',
              '--out-dir',
              '/reports/{yesterday}',
              '--no-progress',
            ],
          },
        ]);
        const pod = podTemplateOf(cronJob())?.spec as {
          volumes: { name: string; persistentVolumeClaim?: { claimName: string } }[];
        };
        const claim = pod.volumes.find((volume) => volume.name === 'reports')?.persistentVolumeClaim?.claimName;
        expect(find(objects, 'PersistentVolumeClaim', claim ?? '')).toBeDefined();
        for (const container of allContainersOf(cronJob()))
          expect(container['volumeMounts']).toContainEqual({ name: 'reports', mountPath: '/reports' });
      });

      it('reads the apps\u2019 event store as its read-only user, with no Kafka or app credentials', () => {
        const config = configOf(objects);
        for (const container of allContainersOf(cronJob())) {
          expect(container['envFrom']).toEqual([{ configMapRef: { name: 'reelstream-config' } }]);
          const entries = container['env'] as {
            name: string;
            value?: string;
            valueFrom?: { secretKeyRef?: { name: string; key: string } };
          }[];
          const env = new Map(entries.map((e) => [e.name, e.value] as const));
          const files = secretFiles(cronJob(), container.name);
          if (dir === PRODUCTION) {
            // The apps' database and CA, as the read-only role of the cluster's managed roles, on the
            // primary itself where the apps' LISTEN connections go: its long reads hold no pooler connection.
            const apps = parsePostgresUrl(config['EVENT_STORE_URL'] ?? '');
            const reader = parsePostgresUrl(env.get('EVENT_STORE_URL') ?? '');
            const readerUrl = new URL(reader.connectionString);
            expect(readerUrl.username).toBe('reelstream_reports');
            expect(apps.listen).toEqual({ host: readerUrl.hostname, port: readerUrl.port });
            readerUrl.username = new URL(apps.connectionString).username;
            readerUrl.host = new URL(apps.connectionString).host;
            expect(readerUrl.toString()).toBe(apps.connectionString);
            expect(readerUrl.password).toBe('');
            const cluster = find(objects, 'Cluster', 'reelstream-pg')?.['spec'] as {
              managed: {
                roles: { name: string; login?: boolean; superuser?: boolean; passwordSecret?: { name: string } }[];
              };
            };
            const role = cluster.managed.roles.find((r) => r.name === 'reelstream_reports');
            expect(role).toMatchObject({ login: true });
            expect(role?.superuser).not.toBe(true);
            expect(entries.find((e) => e.name === 'PGPASSWORD')?.valueFrom?.secretKeyRef).toEqual({
              name: role?.passwordSecret?.name,
              key: 'password',
            });
            expect(templateSecrets.has(role?.passwordSecret?.name ?? '')).toBe(true);
            expect(files.get(readerUrl.searchParams.get('sslrootcert') ?? '')).toEqual({
              secret: 'reelstream-pg-ca',
              key: 'ca.crt',
            });
          } else {
            // The same EVENT_STORE_URL as the apps (from reelstream-config), another user.
            expect(env.has('EVENT_STORE_URL')).toBe(false);
            expect(config['EVENT_STORE_URL']).toMatch(/^esdb:\/\//);
            expect(env.get('EVENTSTORE_USERNAME')).not.toBe(config['EVENTSTORE_USERNAME']);
            expect(files.get(env.get('EVENTSTORE_PASSWORD_FILE') ?? '')).toEqual({
              secret: 'reelstream-eventstore-reader',
              key: 'password',
            });
            expect(files.get(env.get('EVENTSTORE_TLS_CA_FILE') ?? '')?.secret).toBe('reelstream-eventstore-reader');
            expect(entries.filter((e) => e.valueFrom)).toEqual([]);
          }
          expect(files.get(config['OPERATORS_FILE'] ?? '')).toEqual({
            secret: 'reelstream-operators',
            key: 'OPERATORS_JSON',
          });
          // Neither Kafka's nor the apps' own store credentials.
          const secretsUsed = [
            ...[...files.values()].map((file) => file.secret),
            ...entries.flatMap((e) => (e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [])),
          ];
          expect(
            secretsUsed.filter((name) => /kafka|^reelstream$|^reelstream-eventstore$|^reelstream-pg-app$/.test(name)),
          ).toEqual([]);
          const heapMiB = Number(/--max-old-space-size=(\d+)/.exec(env.get('NODE_OPTIONS') ?? '')?.[1]);
          const resources = container['resources'] as { limits: Record<string, string> };
          expect(heapMiB * 2 ** 20).toBeLessThan(bytesOf(resources.limits['memory'] ?? '0') * 0.8);
          const pod = podTemplateOf(cronJob())?.spec as { volumes: { emptyDir?: { sizeLimit?: string } }[] };
          const emptyDirs = pod.volumes.reduce(
            (sum, v) => sum + (v.emptyDir ? bytesOf(v.emptyDir.sizeLimit ?? 'Infinity') : 0),
            0,
          );
          expect(emptyDirs).toBeLessThanOrEqual(bytesOf(resources.limits['ephemeral-storage'] ?? '0'));
        }
      });
    });

    it('lets a 10,000-player campaign through the Ingress (1 MiB, the gateway route limit)', () => {
      const annotations = find(objects, 'Ingress', 'reelstream')?.metadata['annotations'] as Record<string, string>;
      expect(bytesOf(annotations['nginx.ingress.kubernetes.io/proxy-body-size'] ?? '0')).toBeGreaterThanOrEqual(
        CAMPAIGN_BODY_LIMIT_BYTES,
      );
    });

    it('re-runs the kafka-topics Job on every apply (it deletes itself once finished) with its heap under its limit', () => {
      const job = find(objects, 'Job', 'kafka-topics') as K8sObject;
      expect((job['spec'] as { ttlSecondsAfterFinished: number }).ttlSecondsAfterFinished).toBe(0);
      const [container] = containersOf(job);
      const heapMiB = Number(
        /--max-old-space-size=(\d+)/.exec(
          (container?.['env'] as { name: string; value: string }[]).find((e) => e.name === 'NODE_OPTIONS')?.value ?? '',
        )?.[1],
      );
      const limit = bytesOf((container?.['resources'] as { limits: Record<string, string> }).limits['memory'] ?? '0');
      expect(heapMiB * 2 ** 20).toBeLessThan(limit * 0.8);
    });

    it.each(['bonus-ledger', 'gateway'])(
      "keeps each %s replica's read model on its own volume, across rollouts",
      (app) => {
        const workload = find(objects, 'StatefulSet', app) as K8sObject;
        const spec = workload['spec'] as {
          volumeClaimTemplates: { metadata: { name: string } }[];
          template: { spec: { volumes: { name: string }[] } };
        };
        expect(spec.volumeClaimTemplates.map((claim) => claim.metadata.name)).toEqual(['read-model']);
        expect(spec.template.spec.volumes.map((volume) => volume.name)).not.toContain('read-model');
        const [container] = containersOf(workload);
        const env = container?.['env'] as { name: string; value?: string }[];
        const mounts = container?.['volumeMounts'] as { name: string; mountPath: string }[];
        expect(env.find((e) => e.name === 'READ_MODEL_DIR')?.value).toBe(
          mounts.find((mount) => mount.name === 'read-model')?.mountPath,
        );
      },
    );

    it("fits every pod's emptyDirs within its containers' ephemeral-storage limits", () => {
      for (const workload of objects.filter(isWorkload)) {
        const pod = podTemplateOf(workload)?.spec as { volumes?: { emptyDir?: { sizeLimit?: string } }[] };
        const emptyDirs = (pod.volumes ?? []).flatMap((volume) => (volume.emptyDir ? [volume.emptyDir] : []));
        const total = emptyDirs.reduce((sum, dir) => sum + bytesOf(dir.sizeLimit ?? 'Infinity'), 0);
        const limit = containersOf(workload).reduce(
          (sum, c) =>
            sum + bytesOf((c['resources'] as { limits: Record<string, string> }).limits['ephemeral-storage'] ?? '0'),
          0,
        );
        expect([workload.metadata.name, total <= limit]).toEqual([workload.metadata.name, true]);
      }
    });

    it('makes no Secret: the administrator creates them from the templates, the operators make the engines\u2019', () => {
      expect(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).toEqual([]);
      const referenced = new Set(
        objects
          .filter((object) => podTemplateOf(object) !== undefined)
          .flatMap((workload) =>
            allContainersOf(workload).flatMap((container) => [
              ...[...secretFiles(workload, container.name).values()].map((file) => file.secret),
              ...((container['env'] ?? []) as { valueFrom?: { secretKeyRef?: { name: string } } }[]).flatMap((e) =>
                e.valueFrom?.secretKeyRef ? [e.valueFrom.secretKeyRef.name] : [],
              ),
            ]),
          ),
      );
      expect([...referenced].filter((name) => !secretExists(objects, name))).toEqual([]);
      expect([...referenced].sort()).toEqual(
        (dir === PRODUCTION
          ? [
              'reelstream-operators',
              'reelstream',
              'reelstream-kafka-cluster-ca-cert',
              'reelstream-pg-app',
              'reelstream-pg-ca',
              'reelstream-pg-reports',
            ]
          : [
              'reelstream-operators',
              'reelstream',
              'reelstream-kafka-cluster-ca-cert',
              'reelstream-eventstore',
              'reelstream-eventstore-reader',
            ]
        ).sort(),
      );
    });
  });

  describe('the production overlay on PostgreSQL (CloudNativePG)', () => {
    const objects = rendered(PRODUCTION);
    const cluster = () => find(objects, 'Cluster', 'reelstream-pg') as K8sObject;
    const pgPooler = () => find(objects, 'Pooler', 'reelstream-pg-pooler-rw') as K8sObject;
    const poolerSpec = () =>
      pgPooler()['spec'] as {
        cluster: { name: string };
        type: string;
        instances: number;
        pgbouncer: { poolMode: string; parameters: Record<string, string> };
      };

    it('puts PgBouncer in transaction mode in front of the primary, spread over zones, its Service not a Cluster name', () => {
      const spec = poolerSpec();
      expect(spec.cluster.name).toBe(cluster().metadata.name);
      expect([spec.type, spec.pgbouncer.poolMode]).toEqual(['rw', 'transaction']);
      expect(spec.instances).toBeGreaterThanOrEqual(2);
      expect(objects.filter((o) => o.kind === 'Cluster').map((o) => o.metadata.name)).not.toContain(
        pgPooler().metadata.name,
      );
    });

    it('runs three instances of a pinned PostgreSQL 15 or later, the database and owner reelstream', () => {
      const spec = cluster()['spec'] as {
        instances: number;
        imageName: string;
        bootstrap: { initdb: { database: string; owner: string } };
        storage: { size: string };
      };
      expect(spec.instances).toBe(3);
      expect(imageProblems(spec.imageName)).toEqual([]);
      expect(Number(/:(\d+)(?:\.\d+)*$/.exec(spec.imageName)?.[1])).toBeGreaterThanOrEqual(15);
      expect(spec.bootstrap.initdb).toEqual({ database: 'reelstream', owner: 'reelstream' });
      expect(bytesOf(spec.storage.size)).toBeGreaterThan(0);
    });

    it('gives every app EVENT_STORE_URL postgresql:// to the pooler (LISTEN to the primary), verify-full against the mounted cluster CA, PGPASSWORD from the app Secret', () => {
      const config = configOf(objects);
      const raw = config['EVENT_STORE_URL'] ?? '';
      expect(raw).toMatch(/^postgresql:\/\//);
      // The adapter's own parser takes it; the password is not in it.
      const parsed = parsePostgresUrl(raw);
      const url = new URL(parsed.connectionString);
      const name = cluster().metadata.name;
      const pooler = pgPooler();
      expect([url.username, url.password, url.host, url.pathname]).toEqual([
        'reelstream',
        '',
        `${pooler.metadata.name}.reelstream.svc:5432`,
        '/reelstream',
      ]);
      expect(parsed.listen).toEqual({ host: `${name}-rw.reelstream.svc`, port: '5432' });
      expect(url.searchParams.get('sslmode')).toBe('verify-full');
      // verify-full holds for the pooler's host: it presents the cluster's server certificate, which names it.
      const altNames = (cluster()['spec'] as { certificates?: { serverAltDNSNames?: string[] } }).certificates
        ?.serverAltDNSNames;
      expect(altNames).toContain(url.hostname);
      for (const workload of appWorkloads(objects)) {
        const files = secretFiles(workload);
        expect([workload.metadata.name, files.get(url.searchParams.get('sslrootcert') ?? '')]).toEqual([
          workload.metadata.name,
          { secret: `${name}-ca`, key: 'ca.crt' },
        ]);
        const env = (containersOf(workload)[0]?.['env'] ?? []) as {
          name: string;
          valueFrom?: { secretKeyRef?: { name: string; key: string } };
        }[];
        expect([workload.metadata.name, env.find((e) => e.name === 'PGPASSWORD')?.valueFrom?.secretKeyRef]).toEqual([
          workload.metadata.name,
          { name: `${name}-app`, key: 'password' },
        ]);
      }
    });
    it("holds the pooler's server connections, every app pod's LISTEN and the daily reports within the server's max_connections, with room for people and tools", () => {
      // A process on the primary itself holds up to its pool (`poolSize`, default 10) and one LISTEN connection.
      const connectionsOf = (url: string) => parsePostgresUrl(url).poolSize + 1;
      const appUrl = parsePostgresUrl(configOf(objects)['EVENT_STORE_URL'] ?? '');
      // Through the pooler, a pod's pool is the pooler's clients; only its LISTEN reaches the server.
      expect(appUrl.listen).not.toBe('same');
      const apps = appWorkloads(objects).map((workload) => ({
        name: workload.metadata.name,
        pods: maxPodsOf(workload, objects),
        connections: maxPodsOf(workload, objects),
      }));
      const { instances, pgbouncer } = poolerSpec();
      const parameter = (key: string, fallback: number) => Number(pgbouncer.parameters[key] ?? fallback);
      // PgBouncer's own defaults: 20 server connections per database and user, no reserve, 100 clients.
      const pooler = {
        name: 'pooler',
        connections: instances * (parameter('default_pool_size', 20) + parameter('reserve_pool_size', 0)),
      };
      // The Service may send every client to one instance: the apps' pools at their most fit in one.
      const clients = apps.reduce((sum, { pods }) => sum + pods * appUrl.poolSize, 0);
      expect({ clients, within: clients <= parameter('max_client_conn', 100) }).toEqual({ clients, within: true });
      // A CronJob that forbids overlapping runs has one pod; its containers run one after another.
      const reports = objects
        .filter((o) => o.kind === 'CronJob')
        .map((cronJob) => {
          expect((cronJob['spec'] as { concurrencyPolicy?: string }).concurrencyPolicy).toBe('Forbid');
          const urls = allContainersOf(cronJob).flatMap((container) =>
            ((container['env'] ?? []) as { name: string; value?: string }[])
              .filter((variable) => variable.name === 'EVENT_STORE_URL' && variable.value?.startsWith('postgres'))
              .map((variable) => variable.value ?? ''),
          );
          return { name: cronJob.metadata.name, connections: Math.max(0, ...urls.map(connectionsOf)) };
        });
      const parameters = (cluster()['spec'] as { postgresql: { parameters: Record<string, string> } }).postgresql
        .parameters;
      const reserved = Number(parameters['superuser_reserved_connections'] ?? 3);
      const PEOPLE_AND_TOOLS = 20;
      const budget = Number(parameters['max_connections']) - reserved - PEOPLE_AND_TOOLS;
      const held = [...apps, pooler, ...reports].reduce((sum, { connections }) => sum + connections, 0);
      expect(apps.map(({ name }) => name).sort()).toEqual([
        'bonus-ledger',
        'game-server',
        'gateway',
        'wallet-dispatcher',
      ]);
      expect(reports.length).toBeGreaterThan(0);
      expect({ held, within: held <= budget }).toEqual({ held, within: true });
    });
  });

  describe('the production-eventstoredb overlay', () => {
    const objects = rendered(PRODUCTION_ESDB);

    it("gives the apps EventStoreDB's esdb:// URL over TLS, its user's password and CA as files, and no PostgreSQL", () => {
      const config = configOf(objects);
      expect(config['EVENT_STORE_URL']).toMatch(/^esdb:\/\/[^?]+\?tls=true$/);
      expect(config['EVENTSTORE_USERNAME']).toBe('reelstream');
      for (const workload of appWorkloads(objects)) {
        const files = secretFiles(workload);
        expect([
          files.get(config['EVENTSTORE_PASSWORD_FILE'] ?? ''),
          files.get(config['EVENTSTORE_TLS_CA_FILE'] ?? ''),
        ]).toEqual([
          { secret: 'reelstream-eventstore', key: 'password' },
          { secret: 'reelstream-eventstore', key: 'ca.crt' },
        ]);
        expect(JSON.stringify(podTemplateOf(workload))).not.toMatch(/postgres|PGPASSWORD|reelstream-pg/);
      }
      expect(JSON.stringify(find(objects, 'CronJob', 'reelstream-daily-reports'))).not.toMatch(/postgres|PGPASSWORD/);
      expect(objects.filter((o) => o.apiVersion.startsWith('postgresql.cnpg.io/'))).toEqual([]);
      expect(objects.filter((o) => /postgres/.test(o.metadata.name)).map((o) => o.metadata.name)).toEqual([]);
    });

    it('is the production overlay with another event store: the same objects otherwise', () => {
      const keys = (list: readonly K8sObject[]) => list.map((o) => `${o.kind}/${o.metadata.name}`).sort();
      const production = rendered(PRODUCTION);
      expect(keys(objects).filter((key) => !keys(production).includes(key))).toEqual([
        'NetworkPolicy/allow-apps-to-eventstore',
      ]);
      expect(keys(production).filter((key) => !keys(objects).includes(key))).toEqual([
        'Cluster/reelstream-pg',
        'NetworkPolicy/allow-apps-to-postgres',
        'NetworkPolicy/allow-daily-reports-into-postgres',
        'NetworkPolicy/allow-postgres',
        'NetworkPolicy/allow-postgres-pooler',
        'PodMonitor/reelstream-pg',
        'Pooler/reelstream-pg-pooler-rw',
        'ScheduledBackup/reelstream-pg-daily',
      ]);
    });
  });

  describe('the engines\u2019 schemas (k8s/test/crds)', () => {
    const engine = (kind: string) =>
      structuredClone(rendered(PRODUCTION).find((o) => o.kind === kind) as K8sObject) as K8sObject & {
        spec: Record<string, unknown>;
      };

    it('accept the rendered Cluster, Pooler, Kafka, KafkaNodePool and KafkaUser', async () => {
      for (const kind of ['Cluster', 'Pooler', 'Kafka', 'KafkaNodePool', 'KafkaUser'])
        expect([kind, await schemaProblems(engine(kind))]).toEqual([kind, []]);
    });

    it('refuse a misspelt field or a wrong type in a CloudNativePG Cluster', async () => {
      const cluster = engine('Cluster');
      cluster.spec['instance'] = 3;
      cluster.spec['instances'] = '3';
      (cluster.spec['bootstrap'] as { initdb: Record<string, unknown> }).initdb['ownr'] = 'reelstream';
      const [role] = (cluster.spec['managed'] as { roles: Record<string, unknown>[] }).roles;
      if (role) role['login'] = 'yes';
      expect(await schemaProblems(cluster)).toEqual([
        'unknown field spec.instance',
        '/spec/instances must be integer',
        'unknown field spec.bootstrap.initdb.ownr',
        '/spec/managed/roles/0/login must be boolean',
      ]);
    });

    it('refuse a PgBouncer parameter CloudNativePG reserves, a pool mode it lacks, a number not given as a string', async () => {
      const pooler = engine('Pooler');
      const pgbouncer = pooler.spec['pgbouncer'] as { poolMode: string; parameters: Record<string, unknown> };
      pgbouncer.poolMode = 'statement';
      pgbouncer.parameters['listen_port'] = '6432';
      pgbouncer.parameters['default_pool_size'] = 30;
      expect(await schemaProblems(pooler)).toEqual([
        '/spec/pgbouncer/poolMode must be equal to one of the allowed values',
        'unknown field spec.pgbouncer.parameters.listen_port',
        '/spec/pgbouncer/parameters/default_pool_size must be string',
      ]);
    });

    it('refuse a misspelt field, a wrong type or an unknown value in the Strimzi objects', async () => {
      const kafka = engine('Kafka');
      const [listener] = (kafka.spec['kafka'] as { listeners: Record<string, unknown>[] }).listeners;
      if (listener) {
        listener['tls'] = 'true';
        listener['authentication'] = { type: 'scram-sha-256' };
      }
      (kafka.spec['kafka'] as Record<string, unknown>)['autorization'] = { type: 'simple' };
      expect(await schemaProblems(kafka)).toEqual([
        'unknown field spec.kafka.autorization',
        '/spec/kafka/listeners/0/tls must be boolean',
        '/spec/kafka/listeners/0/authentication/type must be equal to one of the allowed values',
      ]);
      const pool = engine('KafkaNodePool');
      pool.spec['replicas'] = 'three';
      pool.spec['roles'] = ['controller', 'borker'];
      expect(await schemaProblems(pool)).toEqual([
        '/spec/replicas must be integer',
        '/spec/roles/1 must be equal to one of the allowed values',
      ]);
      const user = engine('KafkaUser');
      const [first, second] = (user.spec['authorization'] as { acls: Record<string, unknown>[] }).acls;
      if (first) first['operation'] = 'Read';
      if (second) second['operations'] = ['Reed'];
      delete user.metadata.labels;
      expect(await schemaProblems(user)).toEqual([
        "/metadata must have required property 'labels'",
        'unknown field spec.authorization.acls.0.operation',
        '/spec/authorization/acls/1/operations/0 must be equal to one of the allowed values',
      ]);
    });
  });

  describe('the checks themselves', () => {
    const gateway = () => structuredClone(find(rendered('overlays/dev'), 'StatefulSet', 'gateway') as K8sObject);

    it('look at init containers too', () => {
      const job = structuredClone(
        find(rendered('overlays/production'), 'CronJob', 'reelstream-daily-reports') as K8sObject,
      );
      const [first] = allContainersOf(job);
      (first?.['securityContext'] as Record<string, unknown>)['readOnlyRootFilesystem'] = false;
      delete (first?.['resources'] as { limits: Record<string, unknown> }).limits['ephemeral-storage'];
      expect(workloadProblems(job).filter((p) => !/Probe/.test(p))).toEqual([
        'CronJob reelstream-daily-reports container export-rounds: needs an ephemeral-storage request and limit',
        'CronJob reelstream-daily-reports container export-rounds: readOnlyRootFilesystem must be true',
      ]);
    });

    it('report a workload without probes, limits or a locked-down container', () => {
      const broken = gateway();
      const [container] = containersOf(broken);
      delete container?.['readinessProbe'];
      (container?.['resources'] as { limits: Record<string, unknown> }).limits = {};
      (container?.['securityContext'] as Record<string, unknown>)['readOnlyRootFilesystem'] = false;
      expect(workloadProblems(broken)).toEqual([
        'StatefulSet gateway container gateway: no readinessProbe',
        'StatefulSet gateway container gateway: needs a memory limit',
        'StatefulSet gateway container gateway: needs an ephemeral-storage request and limit',
        'StatefulSet gateway container gateway: readOnlyRootFilesystem must be true',
      ]);
    });

    it('report worker-id ranges that overlap, leave 0–1023, or do not come from the pod index', () => {
      const objects = structuredClone(rendered('overlays/production'));
      const autoscaler = find(objects, 'HorizontalPodAutoscaler', 'gateway')?.['spec'] as { maxReplicas: number };
      autoscaler.maxReplicas = 249;
      const dispatcherEnv = (containersOf(find(objects, 'StatefulSet', 'wallet-dispatcher') as K8sObject)[0]?.['env'] ??
        []) as { name: string; value?: string }[];
      const base = dispatcherEnv.find((variable) => variable.name === 'WORKER_ID_BASE');
      if (base) base.value = '1022';
      dispatcherEnv.push({ name: 'WORKER_ID', value: '3' });
      expect(workerIdRanges(objects, MAX_WORKER_ID).problems).toEqual([
        'StatefulSet wallet-dispatcher sets WORKER_ID: its pods would draw the same ids',
        'wallet-dispatcher: worker ids 1022–1037 leave 0–1023',
        'gateway (32–280) and game-server (280–311) share worker ids',
      ]);
    });

    it('report a production container without a digest, on the placeholder or with a malformed one', () => {
      const job = structuredClone(find(rendered(PRODUCTION), 'Job', 'kafka-topics') as K8sObject);
      const [container] = containersOf(job);
      const name = splitImage(container?.image ?? '')[0];
      const where = `Job kafka-topics container ${container?.name}`;
      const problemsWith = (image: string) => {
        if (container) container.image = image;
        return digestPinningProblems(job);
      };
      expect(problemsWith(`${name}:0.1.0`)).toEqual([
        `${where}: image ${name}:0.1.0 has no @sha256: digest: pin it with npm run release:pin -- <digest>`,
      ]);
      expect(problemsWith(`${name}:0.1.0@${UNPINNED_DIGEST}`)).toEqual([
        `${where}: image ${name}:0.1.0@${UNPINNED_DIGEST} is on the unpinned placeholder: pin it with npm run release:pin -- <digest>`,
      ]);
      expect(problemsWith(`${name}@sha256:abc`)).toEqual([
        `${where}: image ${name}@sha256:abc has a malformed digest (sha256:<64 hex>)`,
      ]);
      expect(problemsWith(`${name}@${RELEASE_DIGEST}`)).toEqual([]);
    });

    it('report a misspelt field, an unpinned image and a Service that selects nothing', async () => {
      const broken = gateway();
      const [container] = containersOf(broken);
      if (container) {
        container['readinesProbe'] = container['readinessProbe'];
        container.image = 'reelstream:latest';
      }
      expect(await schemaProblems(broken)).toEqual(['unknown field spec.template.spec.containers[0].readinesProbe']);
      expect(workloadProblems(broken)).toContain(
        'StatefulSet gateway container gateway: image reelstream:latest uses latest: pin a version',
      );
      const orphan: K8sObject = {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { name: 'orphan' },
        spec: { selector: { 'app.kubernetes.io/name': 'nobody' }, ports: [{ port: 1 }] },
      };
      expect(serviceProblems(orphan, rendered('overlays/dev'))).toEqual([
        'Service orphan selects {"app.kubernetes.io/name":"nobody"}, which no Deployment or StatefulSet labels its pods with',
      ]);
    });
  });
});
