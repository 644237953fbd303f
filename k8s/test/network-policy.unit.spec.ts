import { describe, expect, it } from '@jest/globals';
import { clusterOf, connection, inCidr, selects, type Endpoint, type NetworkPolicy } from './network-policy.js';
import { findKubectl, render } from './render.js';

/**
 * The NetworkPolicies of each overlay, evaluated as data: which pod may open a connection to which,
 * on which port. The pods are the rendered workloads; the rest of the world is modelled below.
 */
const outside: Endpoint[] = [
  {
    kind: 'pod',
    name: 'kube-dns',
    namespace: 'kube-system',
    labels: { 'k8s-app': 'kube-dns' },
    ip: '10.96.0.10',
    ports: [],
  },
  {
    kind: 'pod',
    name: 'prometheus',
    namespace: 'monitoring',
    labels: { 'app.kubernetes.io/name': 'prometheus' },
    ip: '10.244.9.1',
    ports: [],
  },
  {
    kind: 'pod',
    name: 'ingress-controller',
    namespace: 'ingress-nginx',
    labels: { 'app.kubernetes.io/name': 'ingress-nginx' },
    ip: '10.244.9.2',
    ports: [],
  },
  {
    kind: 'pod',
    name: 'kafka-broker',
    namespace: 'kafka',
    labels: { 'app.kubernetes.io/name': 'kafka' },
    ip: '10.244.9.3',
    ports: [],
  },
  {
    kind: 'pod',
    name: 'esdb-node',
    namespace: 'eventstore',
    labels: { 'app.kubernetes.io/name': 'eventstore' },
    ip: '10.244.9.4',
    ports: [],
  },
  {
    kind: 'pod',
    name: 'otel-collector',
    namespace: 'observability',
    labels: { 'app.kubernetes.io/name': 'otel-collector' },
    ip: '10.244.9.5',
    ports: [],
  },
  { kind: 'pod', name: 'stranger', namespace: 'default', labels: { app: 'stranger' }, ip: '10.244.9.6', ports: [] },
  // The production overlays' engines, made by their operators in the namespace (labels as the operators set them).
  {
    kind: 'pod',
    name: 'kafka-node',
    namespace: 'reelstream',
    labels: { 'strimzi.io/cluster': 'reelstream-kafka', 'strimzi.io/kind': 'Kafka' },
    ip: '10.244.9.7',
    ports: [{ containerPort: 9090 }, { containerPort: 9091 }, { containerPort: 9093 }],
  },
  {
    kind: 'pod',
    name: 'pg-instance',
    namespace: 'reelstream',
    labels: { 'cnpg.io/cluster': 'reelstream-pg' },
    ip: '10.244.9.8',
    ports: [{ containerPort: 5432 }, { containerPort: 8000 }],
  },
  {
    kind: 'pod',
    name: 'pg-pooler',
    namespace: 'reelstream',
    labels: { 'cnpg.io/poolerName': 'reelstream-pg-pooler-rw' },
    ip: '10.244.9.11',
    ports: [{ containerPort: 5432 }],
  },
  { kind: 'pod', name: 'strimzi-operator', namespace: 'strimzi', labels: {}, ip: '10.244.9.9', ports: [] },
  { kind: 'pod', name: 'cnpg-operator', namespace: 'cnpg-system', labels: {}, ip: '10.244.9.10', ports: [] },
  { kind: 'external', name: 'kube-apiserver', ip: '172.20.0.2' },
  { kind: 'external', name: 'operator-wallet', ip: '203.0.113.10' },
  { kind: 'external', name: 'player', ip: '198.51.100.7' },
  { kind: 'external', name: 'cloud-metadata', ip: '169.254.169.254' },
];

const kubectl = findKubectl();
const overlays = ['overlays/dev', 'overlays/production', 'overlays/production-eventstoredb'] as const;
type Overlay = (typeof overlays)[number];
const PRODUCTIONS: Overlay[] = ['overlays/production', 'overlays/production-eventstoredb'];

/** [from, to, port, protocol?] → expected answer, per overlay (every one when `only` is absent). */
type Case = [
  from: string,
  to: string,
  port: number,
  allowed: boolean,
  protocol?: 'TCP' | 'UDP',
  only?: Overlay | Overlay[],
];
const apps = ['gateway', 'game-server', 'bonus-ledger', 'wallet-dispatcher'];
const cases: Case[] = [
  // Everyone resolves names; nobody else in kube-system is reachable.
  ...apps.map((app): Case => [app, 'kube-dns', 53, true, 'UDP']),
  ...apps.map((app): Case => [app, 'kube-dns', 53, true, 'TCP']),
  ['gateway', 'kube-dns', 443, false],
  // Public HTTP only to gateway and game-server, on their HTTP port; in production only through the Ingress controller.
  ['player', 'gateway', 8080, true, 'TCP', 'overlays/dev'],
  ['player', 'game-server', 8081, true, 'TCP', 'overlays/dev'],
  ['player', 'gateway', 8080, false, 'TCP', ['overlays/production', 'overlays/production-eventstoredb']],
  ['player', 'game-server', 8081, false, 'TCP', ['overlays/production', 'overlays/production-eventstoredb']],
  ['stranger', 'gateway', 8080, false, 'TCP', ['overlays/production', 'overlays/production-eventstoredb']],
  ['ingress-controller', 'gateway', 8080, true],
  ['ingress-controller', 'game-server', 8081, true],
  ['ingress-controller', 'gateway', 9464, false],
  ['player', 'gateway', 9464, false],
  ['player', 'wallet-dispatcher', 9090, false],
  ['player', 'bonus-ledger', 9090, false],
  ['stranger', 'wallet-dispatcher', 9464, false],
  // Prometheus scrapes every app's metrics port, and nothing else.
  ...apps.map((app): Case => ['prometheus', app, 9464, true]),
  ['prometheus', 'bonus-ledger', 9090, false],
  // Apps never call each other.
  ['gateway', 'bonus-ledger', 9090, false],
  ['game-server', 'wallet-dispatcher', 9090, false],
  ['bonus-ledger', 'gateway', 8080, false],
  // Operator callbacks: only the dispatcher, only HTTPS, never into the cluster's private ranges.
  ['wallet-dispatcher', 'operator-wallet', 443, true],
  ['wallet-dispatcher', 'operator-wallet', 80, false],
  ['game-server', 'operator-wallet', 443, false],
  ['gateway', 'operator-wallet', 443, false],
  ['wallet-dispatcher', 'cloud-metadata', 443, false],
  ['wallet-dispatcher', 'stranger', 443, false],
  ['wallet-dispatcher', 'gateway', 443, false],
  // Dev: the in-cluster Kafka, EventStoreDB and sandbox.
  ...apps.map((app): Case => [app, 'kafka', 9092, true, 'TCP', 'overlays/dev']),
  ...apps.map((app): Case => [app, 'eventstore', 2113, true, 'TCP', 'overlays/dev']),
  ['kafka', 'kafka', 9092, true, 'TCP', 'overlays/dev'],
  ['gateway', 'kafka', 9093, false, 'TCP', 'overlays/dev'],
  ['operator-sandbox', 'kafka', 9092, false, 'TCP', 'overlays/dev'],
  ['stranger', 'kafka', 9092, false, 'TCP', 'overlays/dev'],
  ['stranger', 'eventstore', 2113, false, 'TCP', 'overlays/dev'],
  ['wallet-dispatcher', 'operator-sandbox', 8082, true, 'TCP', 'overlays/dev'],
  ['game-server', 'operator-sandbox', 8082, false, 'TCP', 'overlays/dev'],
  ['gateway', 'operator-sandbox', 8082, false, 'TCP', 'overlays/dev'],
  ['player', 'operator-sandbox', 8082, false, 'TCP', 'overlays/dev'],
  ['kafka', 'operator-wallet', 443, false, 'TCP', 'overlays/dev'],
  ['eventstore', 'kafka', 9092, false, 'TCP', 'overlays/dev'],
  // Both productions: the Strimzi Kafka nodes in the namespace, the collector, the topics Job.
  ...apps.map((app): Case => [app, 'kafka-node', 9093, true, 'TCP', PRODUCTIONS]),
  ...apps.map((app): Case => [app, 'otel-collector', 4318, true, 'TCP', PRODUCTIONS]),
  ['gateway', 'kafka-node', 9091, false, 'TCP', PRODUCTIONS],
  ['gateway', 'kafka-broker', 9092, false, 'TCP', PRODUCTIONS],
  ['gateway', 'stranger', 9092, false, 'TCP', PRODUCTIONS],
  ['stranger', 'kafka-node', 9093, false, 'TCP', PRODUCTIONS],
  ['kafka-topics', 'kafka-node', 9093, true, 'TCP', PRODUCTIONS],
  ['kafka-topics', 'kube-dns', 53, true, 'UDP', PRODUCTIONS],
  ['kafka-topics', 'pg-instance', 5432, false, 'TCP', PRODUCTIONS],
  ['kafka-topics', 'esdb-node', 2113, false, 'TCP', PRODUCTIONS],
  ['kafka-topics', 'operator-wallet', 443, false, 'TCP', PRODUCTIONS],
  // The Kafka nodes among themselves (quorum, replication), their operator, the Kubernetes API.
  ['kafka-node', 'kafka-node', 9090, true, 'TCP', PRODUCTIONS],
  ['kafka-node', 'kafka-node', 9091, true, 'TCP', PRODUCTIONS],
  ['strimzi-operator', 'kafka-node', 9091, true, 'TCP', PRODUCTIONS],
  ['kafka-node', 'kube-apiserver', 6443, true, 'TCP', PRODUCTIONS],
  ['kafka-node', 'gateway', 8080, false, 'TCP', PRODUCTIONS],
  ['kafka-node', 'operator-wallet', 80, false, 'TCP', PRODUCTIONS],
  ['cnpg-operator', 'kafka-node', 9091, false, 'TCP', PRODUCTIONS],
  // PostgreSQL (production): the apps and the daily reports to the instances; the instances among
  // themselves, their operator, the Kubernetes API.
  ...apps.map((app): Case => [app, 'pg-instance', 5432, true, 'TCP', 'overlays/production']),
  ...apps.map((app): Case => [app, 'esdb-node', 2113, false, 'TCP', 'overlays/production']),
  ['gateway', 'pg-instance', 8000, false, 'TCP', 'overlays/production'],
  ['stranger', 'pg-instance', 5432, false, 'TCP', 'overlays/production'],
  ['pg-instance', 'pg-instance', 5432, true, 'TCP', 'overlays/production'],
  ['pg-instance', 'pg-instance', 8000, true, 'TCP', 'overlays/production'],
  ['cnpg-operator', 'pg-instance', 8000, true, 'TCP', 'overlays/production'],
  ['strimzi-operator', 'pg-instance', 8000, false, 'TCP', 'overlays/production'],
  ['pg-instance', 'kube-apiserver', 6443, true, 'TCP', 'overlays/production'],
  ['pg-instance', 'kafka-node', 9093, false, 'TCP', 'overlays/production'],
  ['reelstream-daily-reports', 'pg-instance', 5432, true, 'TCP', 'overlays/production'],
  ['reelstream-daily-reports', 'esdb-node', 2113, false, 'TCP', 'overlays/production'],
  // The pooler (production): the apps to it, it to the instances and the Kubernetes API, nothing else.
  ...apps.map((app): Case => [app, 'pg-pooler', 5432, true, 'TCP', 'overlays/production']),
  ['pg-pooler', 'pg-instance', 5432, true, 'TCP', 'overlays/production'],
  ['pg-pooler', 'pg-instance', 8000, false, 'TCP', 'overlays/production'],
  ['pg-pooler', 'kube-apiserver', 6443, true, 'TCP', 'overlays/production'],
  ['pg-pooler', 'kafka-node', 9093, false, 'TCP', 'overlays/production'],
  ['stranger', 'pg-pooler', 5432, false, 'TCP', 'overlays/production'],
  ['kafka-topics', 'pg-pooler', 5432, false, 'TCP', 'overlays/production'],
  ['reelstream-daily-reports', 'pg-pooler', 5432, false, 'TCP', 'overlays/production'],
  ...apps.map((app): Case => [app, 'pg-pooler', 5432, false, 'TCP', 'overlays/production-eventstoredb']),
  // EventStoreDB (production-eventstoredb): its nodes in their namespace, and no PostgreSQL.
  ...apps.map((app): Case => [app, 'esdb-node', 2113, true, 'TCP', 'overlays/production-eventstoredb']),
  ...apps.map((app): Case => [app, 'pg-instance', 5432, false, 'TCP', 'overlays/production-eventstoredb']),
  ['gateway', 'esdb-node', 9093, false, 'TCP', 'overlays/production-eventstoredb'],
  ['reelstream-daily-reports', 'esdb-node', 2113, true, 'TCP', 'overlays/production-eventstoredb'],
  ['reelstream-daily-reports', 'pg-instance', 5432, false, 'TCP', 'overlays/production-eventstoredb'],
  // The daily reports: the event store (and DNS), nothing else.
  ['reelstream-daily-reports', 'kube-dns', 53, true, 'UDP', PRODUCTIONS],
  ['reelstream-daily-reports', 'kafka-node', 9093, false, 'TCP', PRODUCTIONS],
  ['reelstream-daily-reports', 'otel-collector', 4318, false, 'TCP', PRODUCTIONS],
  ['reelstream-daily-reports', 'operator-wallet', 443, false, 'TCP', PRODUCTIONS],
  ['reelstream-daily-reports', 'gateway', 8080, false, 'TCP', PRODUCTIONS],
  ['stranger', 'reelstream-daily-reports', 9464, false, 'TCP', PRODUCTIONS],
];

describe('NetworkPolicy evaluation (the evaluator itself)', () => {
  const ns = 'reelstream';
  const pod = (name: string, labels: Record<string, string>, namespace = ns): Endpoint => ({
    kind: 'pod',
    name,
    namespace,
    labels,
    ip: '10.0.0.1',
    ports: [{ name: 'http', containerPort: 8080 }],
  });
  const a = pod('a', { app: 'a' });
  const b = pod('b', { app: 'b' });

  it('allows everything without policies and isolates only the pods a policy selects, per direction', () => {
    expect(connection({ policies: [], namespaces: {} }, a, b, 8080).allowed).toBe(true);
    const denyB: NetworkPolicy = {
      metadata: { name: 'd', namespace: ns },
      spec: { podSelector: { matchLabels: { app: 'b' } } },
    };
    const cluster = { policies: [denyB], namespaces: {} };
    expect(connection(cluster, a, b, 8080).allowed).toBe(false);
    expect(connection(cluster, b, a, 8080).allowed).toBe(true);
  });

  it('matches named ports, protocols, port ranges, selectors in and across namespaces, and ipBlock excepts', () => {
    const policy: NetworkPolicy = {
      metadata: { name: 'p', namespace: ns },
      spec: {
        podSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['b'] }] },
        ingress: [
          { from: [{ podSelector: { matchLabels: { app: 'a' } } }], ports: [{ port: 'http' }] },
          {
            from: [{ namespaceSelector: { matchLabels: { team: 'x' } } }],
            ports: [{ port: 9000, endPort: 9010, protocol: 'UDP' }],
          },
          { from: [{ ipBlock: { cidr: '192.0.2.0/24', except: ['192.0.2.128/25'] } }] },
        ],
      },
    };
    const cluster = { policies: [policy], namespaces: { other: { team: 'x' } } };
    expect(connection(cluster, a, b, 8080).allowed).toBe(true);
    expect(connection(cluster, a, b, 8081).allowed).toBe(false);
    expect(connection(cluster, pod('c', { app: 'a' }, 'other'), b, 8080).allowed).toBe(false);
    expect(connection(cluster, pod('c', {}, 'other'), b, 9005, 'UDP').allowed).toBe(true);
    expect(connection(cluster, pod('c', {}, 'other'), b, 9005, 'TCP').allowed).toBe(false);
    expect(connection(cluster, { kind: 'external', name: 'x', ip: '192.0.2.5' }, b, 1).allowed).toBe(true);
    expect(connection(cluster, { kind: 'external', name: 'y', ip: '192.0.2.200' }, b, 1).allowed).toBe(false);
    expect(selects({ matchExpressions: [{ key: 'k', operator: 'DoesNotExist' }] }, {})).toBe(true);
    expect(selects({ matchExpressions: [{ key: 'k', operator: 'NotIn', values: ['v'] }] }, { k: 'v' })).toBe(false);
    expect([
      inCidr('10.1.2.3', '10.0.0.0/8'),
      inCidr('11.0.0.0', '10.0.0.0/8'),
      inCidr('1.2.3.4', '0.0.0.0/0'),
    ]).toEqual([true, false, true]);
  });
});

describe.each(overlays)('NetworkPolicies of the %s render', (dir) => {
  if (!kubectl) {
    it('need kubectl to render the overlay', () => {
      if (process.env['CI'] === 'true') throw new Error('kubectl is missing from the PATH');
    });
    return;
  }
  const { cluster, pods } = clusterOf(render(kubectl, dir));
  const endpoint = (name: string): Endpoint => {
    const found = pods.get(name) ?? outside.find((o) => o.name === name);
    if (!found) throw new Error(`no pod or endpoint ${name} in ${dir}`);
    return found;
  };
  const mine = cases.filter(([, , , , , only]) => only === undefined || [only].flat().includes(dir));

  it('deny everything by default for every pod of the namespace', () => {
    expect(pods.size).toBeGreaterThanOrEqual(4);
    expect(cluster.policies.find((p) => p.metadata.name === 'default-deny')?.spec).toEqual({
      podSelector: {},
      policyTypes: ['Ingress', 'Egress'],
    });
  });

  it.each(
    mine.map(
      ([from, to, port, allowed, protocol = 'TCP']) =>
        [from, allowed ? '→' : '✗', to, port, protocol, allowed] as const,
    ),
  )('%s %s %s:%d/%s', (from, _arrow, to, port, protocol, allowed) => {
    const answer = connection(cluster, endpoint(from), endpoint(to), port, protocol);
    expect({ allowed: answer.allowed, reason: answer.reason }).toMatchObject({ allowed });
  });

  it('leave no pod of the overlay reachable from outside except gateway and game-server (their HTTP port), in production through the Ingress controller only', () => {
    const reachableFrom = (from: string) => {
      const reachable: string[] = [];
      for (const pod of pods.values())
        for (const port of pod.kind === 'pod' ? pod.ports : [])
          if (connection(cluster, endpoint(from), pod, port.containerPort, (port.protocol ?? 'TCP') as 'TCP').allowed)
            reachable.push(`${pod.name}:${port.containerPort}`);
      return reachable.sort();
    };
    expect(reachableFrom('ingress-controller')).toEqual(['game-server:8081', 'gateway:8080']);
    expect(reachableFrom('player')).toEqual(dir === 'overlays/dev' ? ['game-server:8081', 'gateway:8080'] : []);
  });
});
