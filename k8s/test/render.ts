import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { k8sRoot } from './manifest-files.js';
import type { K8sObject } from './schemas.js';

/**
 * The overlays as the cluster gets them: rendered by the real kustomize (`kubectl kustomize`,
 * the one `kubectl apply -k` runs), never by an imitation that could agree with a mistake.
 */

/** `kubectl` on the PATH, or undefined. */
export function findKubectl(): string | undefined {
  return findOnPath('kubectl');
}

/** Where `command` is on the PATH, if anywhere. */
export function findOnPath(command: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, command);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * `kubectl kustomize k8s/{dir}` (or `{root}/{dir}`, a copy of k8s/), parsed; throws with kustomize's
 * own message when it refuses.
 */
export function render(kubectl: string, dir: string, root = k8sRoot): K8sObject[] {
  const output = execFileSync(kubectl, ['kustomize', join(root, dir)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  return parseAllDocuments(output).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${dir}: ${document.errors.map((e) => e.message).join('; ')}`);
    const value = document.toJS() as K8sObject | null;
    return value ? [value] : [];
  });
}

/** `repo/name:tag` → [`repo/name`, `tag`]; a digest (`repo/name@d`, `repo/name:tag@d`) counts as the tag. */
export function splitImage(image: string): [string, string | undefined] {
  const at = image.indexOf('@');
  const named = at >= 0 ? image.slice(0, at) : image;
  const colon = named.lastIndexOf(':');
  const [name, tag] =
    colon > named.lastIndexOf('/') ? [named.slice(0, colon), named.slice(colon + 1)] : [named, undefined];
  return [name, at >= 0 ? image.slice(at + 1) : tag];
}

export interface Container {
  name: string;
  image: string;
  [field: string]: unknown;
}

export function podTemplateOf(object: K8sObject):
  | {
      metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> };
      spec: Record<string, unknown>;
    }
  | undefined {
  if (object.kind === 'CronJob')
    return (object['spec'] as { jobTemplate: { spec: { template: ReturnType<typeof podTemplateOf> } } }).jobTemplate
      .spec.template;
  if (object.kind !== 'Deployment' && object.kind !== 'StatefulSet' && object.kind !== 'Job') return undefined;
  return (object['spec'] as { template: ReturnType<typeof podTemplateOf> }).template;
}

export function containersOf(object: K8sObject): Container[] {
  return (podTemplateOf(object)?.spec['containers'] as Container[] | undefined) ?? [];
}

/** The init containers, in the order they run, then the containers. */
export function allContainersOf(object: K8sObject): Container[] {
  return [
    ...((podTemplateOf(object)?.spec['initContainers'] as Container[] | undefined) ?? []),
    ...containersOf(object),
  ];
}
