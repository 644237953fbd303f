import { podTemplateOf, containersOf } from './render.js';
import type { K8sObject } from './schemas.js';

/**
 * A small evaluator of Kubernetes NetworkPolicy semantics (networking.k8s.io/v1), to ask of a
 * rendered overlay "may this pod open a connection to that one on this port?".
 *
 * What it models, as the API documents it: a pod is isolated for ingress (egress) when some policy
 * of its namespace selects it and lists Ingress (Egress) in its policyTypes (default: Ingress, plus
 * Egress when the policy has an egress section); an isolated pod accepts (opens) only what the union
 * of those policies' rules allows; a connection needs both the source's egress and the
 * destination's ingress. Peers: podSelector (in the policy's namespace), namespaceSelector (every
 * pod of the matching namespaces), both (pods of those namespaces), ipBlock (cidr minus except; it
 * matches endpoints outside the cluster and, as most CNIs do, pod IPs too). Ports: number or the
 * destination container's named port, protocol (default TCP), endPort. An empty `from`/`to`/`ports`
 * matches everything. Replies are per connection; answers for the reply traffic are implied.
 */

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist'; values?: string[] }[];
}

interface PolicyPort {
  protocol?: 'TCP' | 'UDP' | 'SCTP';
  port?: number | string;
  endPort?: number;
}

interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}

interface Rule {
  ports?: PolicyPort[];
  from?: Peer[];
  to?: Peer[];
}

export interface NetworkPolicy {
  metadata: { name: string; namespace: string };
  spec: {
    podSelector: LabelSelector;
    policyTypes?: ('Ingress' | 'Egress')[];
    ingress?: Rule[];
    egress?: Rule[];
  };
}

/** A pod (in the cluster) or an address outside it. */
export type Endpoint =
  | { kind: 'pod'; name: string; namespace: string; labels: Record<string, string>; ip: string; ports: NamedPort[] }
  | { kind: 'external'; name: string; ip: string };

interface NamedPort {
  name?: string;
  containerPort: number;
  protocol?: string;
}

export interface Cluster {
  policies: NetworkPolicy[];
  /** Namespace name → its labels (`kubernetes.io/metadata.name` is added, as the API server does). */
  namespaces: Record<string, Record<string, string>>;
}

export function selects(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) if (labels[key] !== value) return false;
  for (const { key, operator, values = [] } of selector.matchExpressions ?? []) {
    const has = Object.hasOwn(labels, key);
    const ok =
      operator === 'In'
        ? has && values.includes(labels[key] as string)
        : operator === 'NotIn'
          ? !has || !values.includes(labels[key] as string)
          : operator === 'Exists'
            ? has
            : !has;
    if (!ok) return false;
  }
  return true;
}

function ipToNumber(ip: string): number {
  const parts = ip.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    throw new Error(`not an IPv4 address: ${ip}`);
  return parts.reduce((n, p) => n * 256 + p, 0);
}

export function inCidr(ip: string, cidr: string): boolean {
  const [base = '', bits = '32'] = cidr.split('/');
  const size = 2 ** (32 - Number(bits));
  const start = Math.floor(ipToNumber(base) / size) * size;
  const n = ipToNumber(ip);
  return n >= start && n < start + size;
}

function namespaceLabels(cluster: Cluster, namespace: string): Record<string, string> {
  return { ...(cluster.namespaces[namespace] ?? {}), 'kubernetes.io/metadata.name': namespace };
}

function peerMatches(cluster: Cluster, peer: Peer, policyNamespace: string, endpoint: Endpoint): boolean {
  if (peer.ipBlock) {
    if (!inCidr(endpoint.ip, peer.ipBlock.cidr)) return false;
    return !(peer.ipBlock.except ?? []).some((cidr) => inCidr(endpoint.ip, cidr));
  }
  if (endpoint.kind !== 'pod') return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, namespaceLabels(cluster, endpoint.namespace))
    : endpoint.namespace === policyNamespace;
  return namespaceOk && selects(peer.podSelector, endpoint.labels);
}

function portMatches(ports: PolicyPort[] | undefined, destination: Endpoint, port: number, protocol: string): boolean {
  if (!ports || ports.length === 0) return true;
  return ports.some((p) => {
    if ((p.protocol ?? 'TCP') !== protocol) return false;
    if (p.port === undefined) return true;
    if (typeof p.port === 'string') {
      if (destination.kind !== 'pod') return false;
      return destination.ports.some(
        (named) => named.name === p.port && named.containerPort === port && (named.protocol ?? 'TCP') === protocol,
      );
    }
    return p.endPort === undefined ? p.port === port : port >= p.port && port <= p.endPort;
  });
}

function typesOf(policy: NetworkPolicy): ('Ingress' | 'Egress')[] {
  return policy.spec.policyTypes ?? (policy.spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);
}

function policiesFor(cluster: Cluster, pod: Endpoint, type: 'Ingress' | 'Egress'): NetworkPolicy[] {
  if (pod.kind !== 'pod') return [];
  return cluster.policies.filter(
    (p) =>
      p.metadata.namespace === pod.namespace && typesOf(p).includes(type) && selects(p.spec.podSelector, pod.labels),
  );
}

/** The policies (by name) that let `from` open `to:port`, or why not. */
export function connection(
  cluster: Cluster,
  from: Endpoint,
  to: Endpoint,
  port: number,
  protocol: 'TCP' | 'UDP' = 'TCP',
): { allowed: boolean; reason: string } {
  const egress = policiesFor(cluster, from, 'Egress');
  if (
    egress.length > 0 &&
    !egress.some((policy) =>
      (policy.spec.egress ?? []).some(
        (rule) =>
          (!rule.to ||
            rule.to.length === 0 ||
            rule.to.some((peer) => peerMatches(cluster, peer, policy.metadata.namespace, to))) &&
          portMatches(rule.ports, to, port, protocol),
      ),
    )
  )
    return { allowed: false, reason: `no egress rule of ${from.name} allows ${to.name}:${port}/${protocol}` };
  const ingress = policiesFor(cluster, to, 'Ingress');
  if (
    ingress.length > 0 &&
    !ingress.some((policy) =>
      (policy.spec.ingress ?? []).some(
        (rule) =>
          (!rule.from ||
            rule.from.length === 0 ||
            rule.from.some((peer) => peerMatches(cluster, peer, policy.metadata.namespace, from))) &&
          portMatches(rule.ports, to, port, protocol),
      ),
    )
  )
    return { allowed: false, reason: `no ingress rule of ${to.name} allows ${from.name} on ${port}/${protocol}` };
  return { allowed: true, reason: 'allowed' };
}

/** The NetworkPolicies of a render, and one pod per workload (labels and ports of its template). */
export function clusterOf(
  objects: readonly K8sObject[],
  namespaces: Cluster['namespaces'] = {},
): { cluster: Cluster; pods: Map<string, Endpoint> } {
  const policies = objects
    .filter((o) => o.kind === 'NetworkPolicy')
    .map((o) => ({
      ...(o as unknown as NetworkPolicy),
      metadata: { name: o.metadata.name, namespace: o.metadata.namespace ?? 'default' },
    }));
  const pods = new Map<string, Endpoint>();
  let host = 10;
  for (const object of objects) {
    const template = podTemplateOf(object);
    if (!template) continue;
    const containers = containersOf(object);
    pods.set(object.metadata.name, {
      kind: 'pod',
      name: object.metadata.name,
      namespace: object.metadata.namespace ?? 'default',
      labels: template.metadata?.labels ?? {},
      ip: `10.244.0.${host++}`,
      ports: containers.flatMap((c) => (c['ports'] ?? []) as NamedPort[]),
    });
  }
  return { cluster: { policies, namespaces }, pods };
}
