import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { declarationOf, unknownFields } from './strict-fields.js';

/** A Kubernetes object as read from YAML. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface ModelClass {
  new (data: object): { validate(): void };
}

/** Every kind the manifests may use, by `apiVersion/kind`, and its kubernetes-models module. */
const models: Record<string, string> = {
  'v1/Namespace': 'v1/Namespace',
  'v1/ServiceAccount': 'v1/ServiceAccount',
  'v1/ConfigMap': 'v1/ConfigMap',
  'v1/Secret': 'v1/Secret',
  'v1/Service': 'v1/Service',
  'apps/v1/Deployment': 'apps/v1/Deployment',
  'apps/v1/StatefulSet': 'apps/v1/StatefulSet',
  'batch/v1/Job': 'batch/v1/Job',
  'batch/v1/CronJob': 'batch/v1/CronJob',
  'v1/PersistentVolumeClaim': 'v1/PersistentVolumeClaim',
  'policy/v1/PodDisruptionBudget': 'policy/v1/PodDisruptionBudget',
  'autoscaling/v2/HorizontalPodAutoscaler': 'autoscaling/v2/HorizontalPodAutoscaler',
  'networking.k8s.io/v1/Ingress': 'networking.k8s.io/v1/Ingress',
  'networking.k8s.io/v1/NetworkPolicy': 'networking.k8s.io/v1/NetworkPolicy',
};

/**
 * The operators' kinds (Prometheus Operator, CloudNativePG, Strimzi), validated with ajv against the
 * hand-written schema subsets in k8s/test/crds (see its README).
 */
const crdSchemas: Record<string, string> = {
  'monitoring.coreos.com/v1/PodMonitor': 'podmonitor.schema.json',
  'monitoring.coreos.com/v1/ServiceMonitor': 'servicemonitor.schema.json',
  'monitoring.coreos.com/v1/PrometheusRule': 'prometheusrule.schema.json',
  'postgresql.cnpg.io/v1/Cluster': 'cnpg-cluster.schema.json',
  'postgresql.cnpg.io/v1/ScheduledBackup': 'cnpg-scheduledbackup.schema.json',
  'postgresql.cnpg.io/v1/Pooler': 'cnpg-pooler.schema.json',
  'kafka.strimzi.io/v1beta2/Kafka': 'strimzi-kafka.schema.json',
  'kafka.strimzi.io/v1beta2/KafkaNodePool': 'strimzi-kafkanodepool.schema.json',
  'kafka.strimzi.io/v1beta2/KafkaUser': 'strimzi-kafkauser.schema.json',
};
const ajv = new Ajv({ allErrors: true, strict: true });
const crdValidators = new Map<string, ValidateFunction>();

function crdProblems(object: K8sObject, file: string): string[] {
  let validate = crdValidators.get(file);
  if (!validate) {
    validate = ajv.compile(JSON.parse(readFileSync(join(import.meta.dirname, 'crds', file), 'utf8')) as object);
    crdValidators.set(file, validate);
  }
  if (validate(object)) return [];
  return (validate.errors ?? []).map((error) =>
    error.keyword === 'additionalProperties'
      ? `unknown field ${error.instancePath.slice(1).replace(/\//g, '.')}${error.instancePath ? '.' : ''}${String(error.params['additionalProperty'])}`
      : `${error.instancePath || '(object)'} ${error.message ?? error.keyword}`,
  );
}

/**
 * Schema problems of one object: the kubernetes-models (OpenAPI) validation plus unknown keys, or
 * for the operators' kinds the hand-written CRD schema subset. An empty list means the object is valid.
 */
export async function schemaProblems(object: K8sObject): Promise<string[]> {
  const crd = crdSchemas[`${object.apiVersion}/${object.kind}`];
  if (crd) return crdProblems(object, crd);
  const modelPath = models[`${object.apiVersion}/${object.kind}`];
  if (!modelPath) return [`no schema known for ${object.apiVersion} ${object.kind}: add it to k8s/test/schemas.ts`];
  const module = (await import(`kubernetes-models/${modelPath}`)) as Record<string, ModelClass>;
  const kind = modelPath.split('/').at(-1) as string;
  const Model = module[kind];
  if (!Model) throw new Error(`kubernetes-models/${modelPath} exports no ${kind}`);
  const problems: string[] = [];
  try {
    new Model(asTheApiServerReadsIt(object)).validate();
  } catch (error) {
    problems.push((error as Error).message);
  }
  problems.push(...unknownFields(object, declarationOf(modelPath)).map((field) => `unknown field ${field}`));
  return problems;
}

/**
 * kustomize folds a generated Secret's base64 values into lines of 76; the API server's decoder
 * (Go's encoding/base64) skips line breaks, the schema's `byte` format does not.
 */
function asTheApiServerReadsIt(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object['data']) return object;
  const data = Object.fromEntries(
    Object.entries(object['data'] as Record<string, string>).map(([key, value]) => [key, value.replace(/[\r\n]/g, '')]),
  );
  return { ...object, data };
}
