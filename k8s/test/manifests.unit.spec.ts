import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { parseOperatorsJson } from '@reelstream/contracts';
import { MAX_WORKER_ID } from '@reelstream/ids';
import { CAMPAIGN_BODY_LIMIT_BYTES } from '@reelstream/service-gateway';
import { loadOperators, parseEnv } from '@reelstream/config';
import { sandboxConfigFromEnv } from '@reelstream/service-operator-sandbox';
import { processIdentityEnv, processIdentityOf } from '@reelstream/runtime';
import {
  appImage,
  ID_DRAWING_APPS,
  imageProblems,
  isWorkload,
  referenceProblems,
  serviceProblems,
  workerIdRanges,
  workloadProblems,
} from './checks.js';
import { readKustomization, referencedPaths } from './kustomization.js';
import { readDocuments, yamlFiles } from './manifest-files.js';
import { allContainersOf, containersOf, findKubectl, podTemplateOf, render } from './render.js';
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

const kustomizationDirs = ['base', 'monitoring', 'analytics', 'overlays/dev', 'overlays/production'];
const secretTemplate = 'base/operators-secret.template.yaml';
const backendSecretsTemplate = 'overlays/production/backend-secrets.template.yaml';
const readerSecretTemplate = 'analytics/eventstore-reader-secret.template.yaml';
/** Secrets the cluster operator creates outside kustomize (from the templates); nothing else may be missing. */
const externalSecrets = new Set([
  'reelstream-operators',
  'reelstream-kafka',
  'reelstream-eventstore',
  'reelstream-eventstore-reader',
]);

/** Each app, the container port its probes use, and the ConfigMap key that sets that port. */
const apps: Record<string, { probePort: string; portKey: string }> = {
  gateway: { probePort: 'http', portKey: 'GATEWAY_PORT' },
  'game-server': { probePort: 'http', portKey: 'GAME_PORT' },
  'bonus-ledger': { probePort: 'health', portKey: 'HEALTH_PORT' },
  'wallet-dispatcher': { probePort: 'health', portKey: 'HEALTH_PORT' },
  'operator-sandbox': { probePort: 'http', portKey: 'SANDBOX_PORT' },
};

const manifestFiles = yamlFiles().filter((file) => !file.endsWith('kustomization.yaml'));
const kubectl = findKubectl();
if (!kubectl && process.env['CI'] !== 'true') {
  process.stderr.write(
    `\n${'!'.repeat(78)}\n!! k8s manifests: kubectl not found on the PATH — the OVERLAYS WERE NOT RENDERED OR CHECKED.\n!! Install kubectl to run those tests; under CI=true this fails.\n${'!'.repeat(78)}\n\n`,
  );
}
const renders = new Map<string, K8sObject[]>();
/** The overlay as `kubectl kustomize` renders it (once per run). */
const rendered = (dir: string): K8sObject[] => {
  if (!kubectl) throw new Error('kubectl is missing');
  const objects = renders.get(dir) ?? render(kubectl, dir);
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
/** Files a workload's container (the first, or the one named) reads from Secrets: mounted path → Secret and key. */
function secretFiles(workload: K8sObject, containerName?: string): Map<string, { secret: string; key: string }> {
  const volumes = (podTemplateOf(workload)?.spec['volumes'] ?? []) as {
    name: string;
    secret?: { secretName: string; items?: { key: string; path: string }[] };
  }[];
  const files = new Map<string, { secret: string; key: string }>();
  const container =
    containerName === undefined
      ? containersOf(workload)[0]
      : allContainersOf(workload).find((candidate) => candidate.name === containerName);
  for (const mount of (container?.['volumeMounts'] ?? []) as { name: string; mountPath: string }[]) {
    const secret = volumes.find((v) => v.name === mount.name)?.secret;
    for (const item of secret?.items ?? [])
      files.set(`${mount.mountPath}/${item.path}`, { secret: secret?.secretName ?? '', key: item.key });
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
    expect(
      manifestFiles.filter(
        (file) =>
          !listed.has(file) &&
          file !== secretTemplate &&
          file !== backendSecretsTemplate &&
          file !== readerSecretTemplate,
      ),
    ).toEqual([]);
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
    expect(template?.metadata.name).toBe([...externalSecrets][0]);
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

  describe.each(['overlays/dev', 'overlays/production'])('the %s render', (dir) => {
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

        expect(container?.image).toMatch(new RegExp(`(^|/)${appImage.name}:${appImage.tag.replace(/\./g, '\\.')}$`));
        expect(container?.['command']).toEqual(['node', `dist/apps/${name}/main.js`]);
        expect(container?.['envFrom']).toEqual([{ configMapRef: { name: 'reelstream-config' } }]);
        expect(env.find((e) => e.name === 'OTEL_SERVICE_NAME')?.value).toBe(name);
        // Credentials come as mounted files; the dev overlay's sandbox alone reads its admin token from the environment.
        expect(env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.name)).toEqual(
          name === 'operator-sandbox' ? ['SANDBOX_ADMIN_TOKEN'] : [],
        );
        const operators = secretFiles(deployment).get(config['OPERATORS_FILE'] ?? '');
        expect(operators?.key).toBe('OPERATORS_JSON');
        const secret = find(objects, 'Secret', operators?.secret ?? '');
        expect(secret !== undefined || externalSecrets.has(operators?.secret ?? '')).toBe(true);
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
        ['gateway', 'game-server'].map((name) => find(objects, 'HorizontalPodAutoscaler', name)?.metadata.name),
      ).toEqual(['gateway', 'game-server']);
    });
  });

  describe.each(['overlays/dev', 'overlays/production'])('worker ids in the %s render', (dir) => {
    it('give every pod that draws ids its own worker id: disjoint ranges within 0–31, from the pod index', () => {
      const { ranges, problems } = workerIdRanges(rendered(dir), MAX_WORKER_ID);
      expect(problems).toEqual([]);
      expect(ranges.map((range) => range.workload).sort()).toEqual([...ID_DRAWING_APPS].sort());
      // The runtime takes the last pod of each range as it is configured.
      for (const range of ranges) {
        const env = parseEnv(processIdentityEnv, {
          WORKER_ID_BASE: String(range.base),
          POD_INDEX: String(range.maxPods - 1),
        });
        expect(processIdentityOf('gateway', env, `${range.workload}-${range.maxPods - 1}`).workerId).toBe(range.last);
      }
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

  describe('the production overlay', () => {
    const objects = rendered('overlays/production');

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

    it('runs at least three of every app and autoscales the HTTP apps from three', () => {
      for (const name of ['bonus-ledger', 'wallet-dispatcher'])
        expect((find(objects, 'StatefulSet', name)?.['spec'] as { replicas: number }).replicas).toBe(3);
      for (const name of ['gateway', 'game-server'])
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

    it('reads every credential from a mounted Secret file: operators, Kafka SASL and CA, EventStoreDB password and CA', () => {
      const config = configOf(objects);
      const fileSettings = Object.entries(config).filter(([key]) => key.endsWith('_FILE'));
      expect(fileSettings.map(([key]) => key).sort()).toEqual(
        [
          'EVENTSTORE_PASSWORD_FILE',
          'EVENTSTORE_TLS_CA_FILE',
          'KAFKA_SASL_PASSWORD_FILE',
          'KAFKA_TLS_CA_FILE',
          'OPERATORS_FILE',
        ].sort(),
      );
      expect(Object.keys(config).filter((key) => /PASSWORD$|SECRET|TOKEN|OPERATORS_JSON/.test(key))).toEqual([]);
      const workloads = [...appWorkloads(objects), find(objects, 'Job', 'kafka-topics') as K8sObject];
      for (const workload of appWorkloads(objects)) {
        const files = secretFiles(workload);
        expect([
          workload.metadata.name,
          fileSettings.filter(([, path]) => !files.has(path)).map(([key]) => key),
        ]).toEqual([workload.metadata.name, []]);
      }
      const topics = secretFiles(workloads.at(-1) as K8sObject);
      expect(['KAFKA_SASL_PASSWORD_FILE', 'KAFKA_TLS_CA_FILE'].filter((key) => !topics.has(config[key] ?? ''))).toEqual(
        [],
      );
      expect(config['KAFKA_AUTO_CREATE_TOPICS']).toBe('false');
    });

    it('says the replication of the Kafka topics instead of deriving it from the brokers that answer', () => {
      expect(configOf(objects)).toMatchObject({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' });
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
        for (const container of allContainersOf(cronJob()))
          expect(container.image).toMatch(new RegExp(`(^|/)${appImage.name}:${appImage.tag.replace(/\./g, '\\.')}$`));
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
          const env = new Map(
            (container['env'] as { name: string; value: string }[]).map((e) => [e.name, e.value] as const),
          );
          // The same EVENT_STORE_URL as the apps (from reelstream-config), another user.
          expect(env.has('EVENT_STORE_URL')).toBe(false);
          expect(config['EVENT_STORE_URL']).toMatch(/^esdb:\/\//);
          expect(env.get('EVENTSTORE_USERNAME')).not.toBe(config['EVENTSTORE_USERNAME']);
          const files = secretFiles(cronJob(), container.name);
          expect(files.get(env.get('EVENTSTORE_PASSWORD_FILE') ?? '')).toEqual({
            secret: 'reelstream-eventstore-reader',
            key: 'password',
          });
          expect(files.get(env.get('EVENTSTORE_TLS_CA_FILE') ?? '')?.secret).toBe('reelstream-eventstore-reader');
          expect(files.get(config['OPERATORS_FILE'] ?? '')).toEqual({
            secret: 'reelstream-operators',
            key: 'OPERATORS_JSON',
          });
          expect(
            [...files.values()].map((file) => file.secret).filter((name) => /kafka|^reelstream-eventstore$/.test(name)),
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

    it('expects the operators Secret to be created outside kustomize', () => {
      expect(objects.filter((o) => o.kind === 'Secret').map((o) => o.metadata.name)).toEqual([]);
      expect(externalSecrets).toEqual(
        new Set(['reelstream-operators', 'reelstream-kafka', 'reelstream-eventstore', 'reelstream-eventstore-reader']),
      );
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

    it('report worker-id ranges that overlap, leave 0–31, or do not come from the pod index', () => {
      const objects = structuredClone(rendered('overlays/production'));
      const autoscaler = find(objects, 'HorizontalPodAutoscaler', 'gateway')?.['spec'] as { maxReplicas: number };
      autoscaler.maxReplicas = 9;
      const dispatcherEnv = (containersOf(find(objects, 'StatefulSet', 'wallet-dispatcher') as K8sObject)[0]?.['env'] ??
        []) as { name: string; value?: string }[];
      const base = dispatcherEnv.find((variable) => variable.name === 'WORKER_ID_BASE');
      if (base) base.value = '30';
      dispatcherEnv.push({ name: 'WORKER_ID', value: '3' });
      expect(workerIdRanges(objects, MAX_WORKER_ID).problems).toEqual([
        'StatefulSet wallet-dispatcher sets WORKER_ID: its pods would draw the same ids',
        'wallet-dispatcher: worker ids 30–32 leave 0–31',
        'gateway (8–16) and game-server (16–23) share worker ids',
      ]);
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
