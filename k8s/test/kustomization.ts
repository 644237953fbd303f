import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { k8sRoot } from './manifest-files.js';

const generatorSchema = z.strictObject({
  name: z.string(),
  files: z.array(z.string()).optional(),
  literals: z.array(z.string()).optional(),
});

/** The kustomization fields the manifests use; anything else is refused (a typo would be ignored by kustomize). */
const kustomizationSchema = z.strictObject({
  apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
  kind: z.literal('Kustomization'),
  namespace: z.string().optional(),
  labels: z
    .array(
      z.strictObject({
        pairs: z.record(z.string(), z.string()),
        includeSelectors: z.boolean().optional(),
        includeTemplates: z.boolean().optional(),
      }),
    )
    .optional(),
  resources: z.array(z.string()).optional(),
  patches: z
    .array(
      z.strictObject({
        path: z.string().optional(),
        patch: z.string().optional(),
        target: z.strictObject({ kind: z.string().optional(), name: z.string().optional() }).optional(),
      }),
    )
    .optional(),
  images: z
    .array(
      z.strictObject({
        name: z.string(),
        newName: z.string().optional(),
        newTag: z.string().optional(),
        digest: z.string().optional(),
      }),
    )
    .optional(),
  replacements: z
    .array(
      z.strictObject({
        source: z.strictObject({ kind: z.string(), name: z.string(), fieldPath: z.string() }),
        targets: z.array(
          z.strictObject({
            select: z.strictObject({ kind: z.string(), name: z.string().optional() }),
            fieldPaths: z.array(z.string()),
            options: z
              .strictObject({ delimiter: z.string().optional(), index: z.number().int().optional() })
              .optional(),
          }),
        ),
      }),
    )
    .optional(),
  secretGenerator: z.array(generatorSchema.extend({ type: z.string().optional() })).optional(),
  configMapGenerator: z.array(generatorSchema).optional(),
  generatorOptions: z
    .strictObject({
      disableNameSuffixHash: z.boolean().optional(),
      labels: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

export type Kustomization = z.infer<typeof kustomizationSchema>;

export function readKustomization(dir: string): Kustomization {
  const path = join(k8sRoot, dir, 'kustomization.yaml');
  return kustomizationSchema.parse(parse(readFileSync(path, 'utf8')));
}

/** `KEY=path` or `path` in a generator's `files`. */
function generatorFile(entry: string): { key: string; file: string } {
  const [key, file] = entry.includes('=')
    ? (entry.split('=', 2) as [string, string])
    : [entry.split('/').at(-1) as string, entry];
  return { key, file };
}

/** Every path a kustomization names (resources, patch files, generator files), relative to k8s/, and whether it exists. */
export function referencedPaths(dir: string): { path: string; exists: boolean; isDirectory: boolean }[] {
  const k = readKustomization(dir);
  const named = [
    ...(k.resources ?? []),
    ...(k.patches ?? []).flatMap((patch) => (patch.path ? [patch.path] : [])),
    ...[...(k.secretGenerator ?? []), ...(k.configMapGenerator ?? [])].flatMap((generator) =>
      (generator.files ?? []).map((entry) => generatorFile(entry).file),
    ),
  ];
  return named.map((name) => {
    const absolute = join(k8sRoot, dir, name);
    const exists = existsSync(absolute);
    return { path: relative(k8sRoot, absolute), exists, isDirectory: exists && statSync(absolute).isDirectory() };
  });
}
