import { digestProblems } from '../../scripts/release/pin-image.js';
import { allContainersOf, containersOf, podTemplateOf, splitImage, type Container } from './render.js';
import type { K8sObject } from './schemas.js';

/** The image every reelstream app runs from (docs/architecture.md "Processes": one image, one `main.js` per app). */
export const appImage = { name: 'reelstream', tag: '0.1.0' };

interface Probe {
  httpGet?: { path?: string; port?: string | number };
  tcpSocket?: { port?: string | number };
}
interface ContainerPort {
  name?: string;
  containerPort: number;
}

export const isWorkload = (object: K8sObject): boolean => object.kind === 'Deployment' || object.kind === 'StatefulSet';

export function imageProblems(image: string): string[] {
  const [, tag] = splitImage(image);
  if (tag === undefined || tag === '') return [`image ${image} has no tag: pin one`];
  if (tag === 'latest') return [`image ${image} uses latest: pin a version`];
  return [];
}

/**
 * Production runs every container by digest (`name[:tag]@sha256:…`), the digest a release pinned
 * (scripts/release/pin-image.ts): a tag can be pushed again, a digest cannot.
 */
export function digestPinningProblems(object: K8sObject): string[] {
  return allContainersOf(object).flatMap((container) =>
    digestProblems(container.image).map(
      (problem) => `${object.kind} ${object.metadata.name} container ${container.name}: ${problem}`,
    ),
  );
}

function portResolves(container: Container, port: string | number | undefined): boolean {
  const ports = (container['ports'] as ContainerPort[] | undefined) ?? [];
  return ports.some((p) => (typeof port === 'number' ? p.containerPort === port : p.name === port));
}

/**
 * What every workload container must have: readiness and liveness probes on one of its own ports,
 * CPU and memory requests and a memory limit, and a securityContext that runs as non-root, without
 * privilege escalation, with every capability dropped; our own images also on a read-only root.
 */
export function workloadProblems(object: K8sObject): string[] {
  const where = `${object.kind} ${object.metadata.name}`;
  const pod = podTemplateOf(object);
  if (!pod) return [`${where} has no pod template`];
  const problems: string[] = [];
  const podSecurity = (pod.spec['securityContext'] ?? {}) as {
    runAsNonRoot?: boolean;
    seccompProfile?: { type?: string };
  };
  if (podSecurity.runAsNonRoot !== true) problems.push(`${where}: pod securityContext.runAsNonRoot must be true`);
  if (podSecurity.seccompProfile?.type !== 'RuntimeDefault')
    problems.push(`${where}: pod seccompProfile must be RuntimeDefault`);
  if (pod.spec['automountServiceAccountToken'] !== false)
    problems.push(`${where}: automountServiceAccountToken must be false`);
  if (containersOf(object).length === 0) problems.push(`${where} has no containers`);
  // Init containers too: they run with the same image, mounts and credentials.
  const containers = allContainersOf(object);
  for (const container of containers) {
    const at = `${where} container ${container.name}`;
    for (const kind of ['readinessProbe', 'livenessProbe'] as const) {
      const probe = container[kind] as Probe | undefined;
      const port = probe?.httpGet?.port ?? probe?.tcpSocket?.port;
      if (!probe) problems.push(`${at}: no ${kind}`);
      else if (!portResolves(container, port))
        problems.push(`${at}: ${kind} port ${String(port)} is not one of the container's ports`);
    }
    const resources = (container['resources'] ?? {}) as {
      requests?: Record<string, unknown>;
      limits?: Record<string, unknown>;
    };
    if (!resources.requests?.['cpu'] || !resources.requests['memory'])
      problems.push(`${at}: needs cpu and memory requests`);
    if (!resources.limits?.['memory']) problems.push(`${at}: needs a memory limit`);
    // Without them a pod's logs and emptyDirs may fill the node's disk, and it is evicted first.
    if (!resources.requests?.['ephemeral-storage'] || !resources.limits?.['ephemeral-storage'])
      problems.push(`${at}: needs an ephemeral-storage request and limit`);
    const security = (container['securityContext'] ?? {}) as {
      runAsNonRoot?: boolean;
      allowPrivilegeEscalation?: boolean;
      readOnlyRootFilesystem?: boolean;
      capabilities?: { drop?: string[]; add?: string[] };
      privileged?: boolean;
    };
    if (security.allowPrivilegeEscalation !== false) problems.push(`${at}: allowPrivilegeEscalation must be false`);
    if (security.privileged === true) problems.push(`${at}: must not be privileged`);
    if (!security.capabilities?.drop?.includes('ALL')) problems.push(`${at}: must drop ALL capabilities`);
    if ((security.capabilities?.add ?? []).length > 0) problems.push(`${at}: must not add capabilities`);
    if (security.runAsNonRoot !== true && podSecurity.runAsNonRoot !== true)
      problems.push(`${at}: must run as non-root`);
    if (splitImage(container.image)[0].endsWith(appImage.name) && security.readOnlyRootFilesystem !== true) {
      problems.push(`${at}: readOnlyRootFilesystem must be true`);
    }
    problems.push(...imageProblems(container.image).map((problem) => `${at}: ${problem}`));
  }
  return problems;
}

function selects(selector: Record<string, string>, labels: Record<string, string> | undefined): boolean {
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** Services select pods of an existing workload and target ports those pods declare. */
export function serviceProblems(service: K8sObject, objects: readonly K8sObject[]): string[] {
  const spec = service['spec'] as {
    selector?: Record<string, string>;
    ports?: { name?: string; port: number; targetPort?: string | number }[];
  };
  const where = `Service ${service.metadata.name}`;
  if (!spec.selector || Object.keys(spec.selector).length === 0) return [`${where} selects nothing`];
  const selected = objects.filter(
    (object) => isWorkload(object) && selects(spec.selector ?? {}, podTemplateOf(object)?.metadata?.labels),
  );
  if (selected.length === 0)
    return [
      `${where} selects ${JSON.stringify(spec.selector)}, which no Deployment or StatefulSet labels its pods with`,
    ];
  const problems: string[] = [];
  for (const port of spec.ports ?? []) {
    const target = port.targetPort ?? port.port;
    for (const workload of selected) {
      if (!containersOf(workload).some((container) => portResolves(container, target))) {
        problems.push(
          `${where} port ${port.name ?? port.port} targets ${String(target)}, which ${workload.kind} ${workload.metadata.name} does not expose`,
        );
      }
    }
  }
  return problems;
}

/** PodDisruptionBudgets and HorizontalPodAutoscalers point at Deployments that exist. */
export function referenceProblems(object: K8sObject, objects: readonly K8sObject[]): string[] {
  if (object.kind === 'PodDisruptionBudget') {
    const selector =
      (object['spec'] as { selector?: { matchLabels?: Record<string, string> } }).selector?.matchLabels ?? {};
    const matched = objects.some(
      (candidate) => isWorkload(candidate) && selects(selector, podTemplateOf(candidate)?.metadata?.labels),
    );
    return matched && Object.keys(selector).length > 0
      ? []
      : [`PodDisruptionBudget ${object.metadata.name} selects no workload's pods`];
  }
  if (object.kind === 'HorizontalPodAutoscaler') {
    const ref = (object['spec'] as { scaleTargetRef: { kind: string; name: string } }).scaleTargetRef;
    return objects.some((candidate) => candidate.kind === ref.kind && candidate.metadata.name === ref.name)
      ? []
      : [`HorizontalPodAutoscaler ${object.metadata.name} scales ${ref.kind} ${ref.name}, which does not exist`];
  }
  if (object.kind === 'Ingress') {
    const spec = object['spec'] as {
      tls?: { hosts?: string[]; secretName?: string }[];
      rules?: {
        host?: string;
        http?: { paths: { backend: { service?: { name: string; port: { name?: string; number?: number } } } }[] };
      }[];
    };
    const problems: string[] = [];
    const tlsHosts = new Set((spec.tls ?? []).flatMap((tls) => tls.hosts ?? []));
    for (const rule of spec.rules ?? []) {
      if (!rule.host || !tlsHosts.has(rule.host))
        problems.push(`Ingress ${object.metadata.name}: host ${rule.host ?? '(none)'} is served without TLS`);
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        const service = objects.find(
          (candidate) => candidate.kind === 'Service' && candidate.metadata.name === backend?.name,
        );
        const ports = (service?.['spec'] as { ports?: { name?: string; port: number }[] } | undefined)?.ports ?? [];
        if (!backend || !ports.some((port) => port.name === backend.port.name || port.port === backend.port.number)) {
          problems.push(
            `Ingress ${object.metadata.name}: backend ${JSON.stringify(backend)} is not a port of an existing Service`,
          );
        }
      }
    }
    return problems;
  }
  return [];
}

/** The workloads whose pods draw 53-bit ids, each with its own range of the 1,024 worker ids (ADR 0039). */
export const ID_DRAWING_APPS = ['gateway', 'game-server', 'bonus-ledger', 'wallet-dispatcher'] as const;

export interface WorkerIdRange {
  workload: string;
  base: number;
  /** The most pods the workload can have: its autoscaler's maximum, else its replica count. */
  maxPods: number;
  first: number;
  last: number;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { fieldRef?: { fieldPath?: string } };
}

/** The most pods a workload can have: its autoscaler's maximum, else its replica count. */
export function maxPodsOf(workload: K8sObject, objects: readonly K8sObject[]): number {
  const autoscaler = objects.find(
    (o) =>
      o.kind === 'HorizontalPodAutoscaler' &&
      (o['spec'] as { scaleTargetRef: { name: string } }).scaleTargetRef.name === workload.metadata.name,
  );
  return (
    (autoscaler?.['spec'] as { maxReplicas?: number } | undefined)?.maxReplicas ??
    (workload['spec'] as { replicas?: number }).replicas ??
    1
  );
}

/**
 * The workload that asks on each reply topic: the gateway's bonus-ledger client (libs/bonus/client) on
 * `bonus.replies`, the game-server's wallet client (libs/game/adapters/src/wallet-client.ts) on `wallet.replies`.
 */
export const REPLY_TOPIC_REQUESTERS: Readonly<Record<string, string>> = {
  'bonus.replies': 'gateway',
  'wallet.replies': 'game-server',
};

/**
 * What keeps a reply topic's requesters from reading a partition each: a requester reads the partition its
 * worker id picks (modulo the topic's partitions), so a workload that can have more pods than the topic has
 * partitions would put two of its pods on one partition, each reading the other's replies.
 */
export function replyPartitionProblems(
  objects: readonly K8sObject[],
  partitionsOf: (topic: string) => number,
): string[] {
  const problems: string[] = [];
  for (const [topic, name] of Object.entries(REPLY_TOPIC_REQUESTERS)) {
    const workload = objects.find((o) => isWorkload(o) && o.metadata.name === name);
    if (!workload) continue;
    const pods = maxPodsOf(workload, objects);
    const partitions = partitionsOf(topic);
    if (pods > partitions)
      problems.push(`${name}: up to ${pods} pods ask on ${topic}, which has ${partitions} partitions`);
  }
  return problems;
}

/**
 * Each id-drawing workload's worker ids (WORKER_ID_BASE + pod index, for every pod it can have),
 * and what is wrong: a workload without a base or without the pod index from the downward API, a
 * fixed WORKER_ID (every pod would draw the same ids), ranges beyond the last worker id or overlapping.
 */
export function workerIdRanges(
  objects: readonly K8sObject[],
  maxWorkerId: number,
): { ranges: WorkerIdRange[]; problems: string[] } {
  const ranges: WorkerIdRange[] = [];
  const problems: string[] = [];
  const config = (objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'reelstream-config')?.['data'] ??
    {}) as Record<string, string>;
  if ('WORKER_ID' in config)
    problems.push('ConfigMap reelstream-config sets WORKER_ID: every pod would draw the same ids');
  for (const name of ID_DRAWING_APPS) {
    const workload = objects.find((o) => isWorkload(o) && o.metadata.name === name);
    if (!workload) continue;
    const env = (containersOf(workload)[0]?.['env'] ?? []) as EnvVar[];
    const base = Number(env.find((variable) => variable.name === 'WORKER_ID_BASE')?.value);
    const podIndex = env.find((variable) => variable.name === 'POD_INDEX')?.valueFrom?.fieldRef?.fieldPath;
    if (env.some((variable) => variable.name === 'WORKER_ID'))
      problems.push(`${workload.kind} ${name} sets WORKER_ID: its pods would draw the same ids`);
    if (workload.kind !== 'StatefulSet')
      problems.push(`${workload.kind} ${name} is not a StatefulSet: its pods have no index`);
    if (podIndex !== "metadata.labels['apps.kubernetes.io/pod-index']")
      problems.push(`${workload.kind} ${name}: POD_INDEX must come from the label apps.kubernetes.io/pod-index`);
    if (!Number.isInteger(base)) {
      problems.push(`${workload.kind} ${name} has no WORKER_ID_BASE`);
      continue;
    }
    const maxPods = maxPodsOf(workload, objects);
    const range = { workload: name, base, maxPods, first: base, last: base + maxPods - 1 };
    ranges.push(range);
    if (range.first < 0 || range.last > maxWorkerId)
      problems.push(`${name}: worker ids ${range.first}–${range.last} leave 0–${maxWorkerId}`);
  }
  for (const [index, a] of ranges.entries()) {
    for (const b of ranges.slice(index + 1)) {
      if (a.first <= b.last && b.first <= a.last)
        problems.push(`${a.workload} (${a.first}–${a.last}) and ${b.workload} (${b.first}–${b.last}) share worker ids`);
    }
  }
  return { ranges, problems };
}

/** A PostgreSQL duration setting (`60s`, `5min`, `1h`, or a number of seconds) in seconds. */
export function postgresSeconds(value: string): number {
  const match = /^(\d+)\s*(ms|s|min|h|d)?$/.exec(value.trim());
  if (!match) return Number.NaN;
  const unit = { ms: 0.001, s: 1, min: 60, h: 3600, d: 86_400 }[(match[2] ?? 's') as 's'];
  return Number(match[1]) * unit;
}

/** CloudNativePG's archive_timeout when the cluster does not set one. */
const CNPG_DEFAULT_ARCHIVE_TIMEOUT = '5min';

interface BarmanObjectStore {
  destinationPath?: string;
  wal?: { compression?: string };
  data?: { compression?: string };
}

/**
 * What keeps a CloudNativePG Cluster of a render from being recovered to a point in time: no WAL
 * archive in object storage (`spec.backup.barmanObjectStore` with a destination, WAL and base backups
 * compressed), no retention policy, an archive_timeout above `maxArchiveTimeoutSeconds` (the most
 * committed work a lost cluster may cost), or no ScheduledBackup of the object store taking a base
 * backup every day (a six-field schedule with any day of the month, month and weekday).
 */
export function pointInTimeRecoveryProblems(objects: readonly K8sObject[], maxArchiveTimeoutSeconds: number): string[] {
  const problems: string[] = [];
  const clusters = objects.filter((o) => o.kind === 'Cluster' && o.apiVersion === 'postgresql.cnpg.io/v1');
  for (const cluster of clusters) {
    const where = `Cluster ${cluster.metadata.name}`;
    const spec = cluster['spec'] as {
      backup?: { barmanObjectStore?: BarmanObjectStore; retentionPolicy?: string };
      postgresql?: { parameters?: Record<string, string> };
    };
    const store = spec.backup?.barmanObjectStore;
    if (!store?.destinationPath)
      problems.push(`${where} archives no WAL: spec.backup.barmanObjectStore has no destinationPath`);
    else {
      if (!store.wal?.compression) problems.push(`${where} archives WAL uncompressed`);
      if (!store.data?.compression) problems.push(`${where} takes base backups uncompressed`);
    }
    if (!spec.backup?.retentionPolicy) problems.push(`${where} has no backup retentionPolicy`);
    const timeout = spec.postgresql?.parameters?.['archive_timeout'] ?? CNPG_DEFAULT_ARCHIVE_TIMEOUT;
    if (!(postgresSeconds(timeout) <= maxArchiveTimeoutSeconds))
      problems.push(`${where}: archive_timeout ${timeout} is above ${maxArchiveTimeoutSeconds} s`);
    const daily = objects.filter((o) => {
      if (o.kind !== 'ScheduledBackup') return false;
      const backup = o['spec'] as {
        cluster?: { name?: string };
        method?: string;
        schedule?: string;
        suspend?: boolean;
      };
      const fields = (backup.schedule ?? '').trim().split(/\s+/);
      return (
        backup.cluster?.name === cluster.metadata.name &&
        (backup.method ?? 'barmanObjectStore') === 'barmanObjectStore' &&
        backup.suspend !== true &&
        fields.length === 6 &&
        fields.slice(3).every((field) => field === '*')
      );
    });
    if (daily.length === 0)
      problems.push(`${where} has no ScheduledBackup taking a daily base backup to its object store`);
  }
  return problems;
}
