import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { generatorFile, readKustomization } from './kustomization.js';
import { k8sRoot, readDocuments } from './manifest-files.js';
import { clusterScopedKinds, type K8sObject } from './schemas.js';

/**
 * A small kustomize: resources (files and directories), namespace, the strategic-merge and
 * JSON 6902 patches, images and secret generators, exactly as far as these manifests use them,
 * so the test can check what an overlay produces without `kubectl` on the machine. Anything it
 * does not understand throws instead of being skipped. (Run `kubectl kustomize` by hand to
 * compare; the README says how.)
 */
export interface Rendered {
  objects: K8sObject[];
  /** Which file each object came from (before patches), for messages. */
  sources: Map<K8sObject, string>;
}

export function render(dir: string): Rendered {
  const k = readKustomization(dir);
  const rendered: Rendered = { objects: [], sources: new Map() };
  for (const resource of k.resources ?? []) {
    const path = relative(k8sRoot, join(k8sRoot, dir, resource));
    if (resource.endsWith('.yaml') || resource.endsWith('.yml')) {
      for (const document of readDocuments(path)) {
        const object = structuredClone(document) as K8sObject;
        rendered.objects.push(object);
        rendered.sources.set(object, path);
      }
    } else {
      const inner = render(path);
      for (const object of inner.objects) {
        rendered.objects.push(object);
        rendered.sources.set(object, inner.sources.get(object) ?? path);
      }
    }
  }
  for (const generator of k.secretGenerator ?? []) {
    const data: Record<string, string> = {};
    for (const entry of generator.files ?? []) {
      const { key, file } = generatorFile(entry);
      data[key] = Buffer.from(readFileSync(join(k8sRoot, dir, file))).toString('base64');
    }
    for (const literal of generator.literals ?? []) {
      const [key = '', value = ''] = literal.split('=', 2);
      data[key] = Buffer.from(value).toString('base64');
    }
    const secret: K8sObject = {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: generator.name },
      type: generator.type ?? 'Opaque',
      data,
    };
    rendered.objects.push(secret);
    rendered.sources.set(secret, `${dir}/kustomization.yaml secretGenerator`);
  }
  for (const patch of k.patches ?? []) applyPatch(rendered, dir, patch);
  if (k.namespace) {
    for (const object of rendered.objects)
      if (!clusterScopedKinds.has(object.kind)) object.metadata.namespace = k.namespace;
  }
  for (const image of k.images ?? []) {
    for (const object of rendered.objects) {
      for (const container of containersOf(object)) {
        const [name] = splitImage(container.image);
        if (name !== image.name) continue;
        const [, tag] = splitImage(container.image);
        const newName = image.newName ?? name;
        container.image = image.digest ? `${newName}@${image.digest}` : `${newName}:${image.newTag ?? tag ?? ''}`;
      }
    }
  }
  return rendered;
}

/** `repo/name:tag` → [`repo/name`, `tag`]; a digest counts as the tag. */
export function splitImage(image: string): [string, string | undefined] {
  const at = image.indexOf('@');
  if (at >= 0) return [image.slice(0, at), image.slice(at + 1)];
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/') ? [image.slice(0, colon), image.slice(colon + 1)] : [image, undefined];
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
  if (object.kind !== 'Deployment' && object.kind !== 'StatefulSet') return undefined;
  return (object['spec'] as { template: ReturnType<typeof podTemplateOf> }).template;
}

export function containersOf(object: K8sObject): Container[] {
  return (podTemplateOf(object)?.spec['containers'] as Container[] | undefined) ?? [];
}

type Patch = NonNullable<ReturnType<typeof readKustomization>['patches']>[number];

function applyPatch(rendered: Rendered, dir: string, patch: Patch): void {
  const text = patch.path ? readFileSync(join(k8sRoot, dir, patch.path), 'utf8') : patch.patch;
  if (text === undefined) throw new Error(`${dir}: a patch needs a path or a patch`);
  const body: unknown = parse(text);
  if (Array.isArray(body)) {
    const targets = rendered.objects.filter((object) => matchesTarget(object, patch.target));
    if (targets.length === 0)
      throw new Error(`${dir}: JSON patch target ${JSON.stringify(patch.target)} matches nothing`);
    for (const target of targets) for (const operation of body) applyJsonPatch(target, operation as JsonPatchOperation);
    return;
  }
  const partial = body as K8sObject;
  const target = rendered.objects.find(
    (object) => object.kind === partial.kind && object.metadata.name === partial.metadata.name,
  );
  if (!target) throw new Error(`${dir}: patch for ${partial.kind} ${partial.metadata.name} matches nothing`);
  strategicMerge(target, partial);
}

function matchesTarget(object: K8sObject, target: Patch['target']): boolean {
  if (!target) return false;
  if (target.kind !== undefined && target.kind !== object.kind) return false;
  return target.name === undefined || new RegExp(`^(?:${target.name})$`).test(object.metadata.name);
}

interface JsonPatchOperation {
  op: 'add' | 'replace' | 'remove';
  path: string;
  value?: unknown;
}

function applyJsonPatch(object: K8sObject, operation: JsonPatchOperation): void {
  const keys = operation.path
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  if (last === undefined) throw new Error(`JSON patch path ${operation.path} is empty`);
  let parent: Record<string, unknown> = object;
  for (const key of keys) {
    const next = parent[key];
    if (typeof next !== 'object' || next === null)
      throw new Error(
        `JSON patch path ${operation.path}: ${key} does not exist in ${object.kind} ${object.metadata.name}`,
      );
    parent = next as Record<string, unknown>;
  }
  if (operation.op !== 'add' && !(last in parent)) {
    throw new Error(
      `JSON patch ${operation.op} ${operation.path}: nothing there in ${object.kind} ${object.metadata.name}`,
    );
  }
  if (operation.op === 'remove') delete parent[last];
  else if (operation.op === 'add' || operation.op === 'replace') parent[last] = structuredClone(operation.value);
  else throw new Error(`unsupported JSON patch operation ${String((operation as { op: unknown }).op)}`);
}

/** Strategic merge as far as used here: maps merge, lists of named items merge by name, other values replace. */
function strategicMerge(target: Record<string, unknown>, patch: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$'))
      throw new Error(`strategic merge directive ${key} is not supported by the test's renderer`);
    const current = target[key];
    if (value === null) delete target[key];
    else if (isPlainObject(value) && isPlainObject(current)) strategicMerge(current, value);
    else if (Array.isArray(value) && Array.isArray(current) && value.every(isNamed) && current.every(isNamed)) {
      for (const item of value) {
        const existing = current.find((candidate) => candidate.name === item.name);
        if (existing) strategicMerge(existing, item);
        else current.push(structuredClone(item));
      }
    } else target[key] = structuredClone(value);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isNamed(value: unknown): value is { name: string } & Record<string, unknown> {
  return isPlainObject(value) && typeof value['name'] === 'string';
}
