import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const k8sRoot = join(import.meta.dirname, '..');

/** Every YAML file under k8s/, relative to it, sorted. */
export function yamlFiles(dir = k8sRoot): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...yamlFiles(path));
    else if (/\.ya?ml$/.test(entry)) found.push(relative(k8sRoot, path));
  }
  return found.sort();
}

/** The documents of one YAML file (empty documents skipped); throws on any YAML error. */
export function readDocuments(file: string): unknown[] {
  const documents = parseAllDocuments(readFileSync(join(k8sRoot, file), 'utf8'));
  const list = Array.isArray(documents) ? documents : [documents];
  return list.flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((e) => e.message).join('; ')}`);
    const value: unknown = document.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}
