import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * kubernetes-models validates types and required fields but accepts unknown keys, so a typo such
 * as `readinesProbe` would pass (and be rejected, or silently dropped, by the API server). This
 * walks an object along the interfaces declared in the package's .d.ts files and reports every
 * key the Kubernetes API does not define.
 */
const nodeModules = resolve(import.meta.dirname, '../../node_modules');

interface Shape {
  /** property name → the interface file describing its value (undefined: a leaf or a map). */
  properties: Map<string, { file: string | undefined; array: boolean }>;
}

const shapes = new Map<string, Shape | undefined>();

export function unknownFields(object: unknown, declarationFile: string, path = ''): string[] {
  const shape = shapeOf(declarationFile);
  if (!shape || typeof object !== 'object' || object === null || Array.isArray(object)) return [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const property = shape.properties.get(key);
    if (!property) {
      problems.push(`${path}${key}`);
      continue;
    }
    if (!property.file) continue;
    if (property.array && Array.isArray(value)) {
      value.forEach((item, index) =>
        problems.push(...unknownFields(item, property.file as string, `${path}${key}[${index}].`)),
      );
    } else if (!property.array) {
      problems.push(...unknownFields(value, property.file, `${path}${key}.`));
    }
  }
  return problems;
}

/** The .d.ts of a kubernetes-models class, e.g. `apps/v1/Deployment`. */
export function declarationOf(modelPath: string): string {
  return join(nodeModules, 'kubernetes-models', `${modelPath}.d.ts`);
}

function shapeOf(file: string): Shape | undefined {
  if (shapes.has(file)) return shapes.get(file);
  const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
  const body = interfaceBody(text);
  const shape = body === undefined ? undefined : { properties: parseProperties(body, imports(text, dirname(file))) };
  shapes.set(file, shape);
  return shape;
}

function interfaceBody(text: string): string | undefined {
  const start = /export interface I\w+(?: extends [^{]+)? \{/.exec(text);
  if (!start) return undefined;
  let depth = 1;
  for (let i = start.index + start[0].length; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return text.slice(start.index + start[0].length, i);
  }
  throw new Error('unbalanced interface declaration');
}

function imports(text: string, dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const match of text.matchAll(/import \{ ([^}]+) \} from "([^"]+)";/g)) {
    const [, names = '', from = ''] = match;
    const file = from.startsWith('.') ? join(dir, `${from}.d.ts`) : join(nodeModules, `${from}.d.ts`);
    for (const name of names.split(',')) found.set(name.trim(), file);
  }
  return found;
}

function parseProperties(body: string, typeFiles: Map<string, string>): Shape['properties'] {
  const properties: Shape['properties'] = new Map();
  let i = 0;
  const property = /"([^"]+)"\??:\s*/y;
  while (i < body.length) {
    property.lastIndex = i;
    const match = property.exec(body);
    if (!match) {
      i++;
      continue;
    }
    const name = match[1] as string;
    let end = property.lastIndex;
    let depth = 0;
    for (; end < body.length; end++) {
      const char = body[end];
      if (char === '{' || char === '<' || char === '(') depth++;
      else if (char === '}' || char === '>' || char === ')') depth--;
      else if (char === ';' && depth === 0) break;
    }
    const type = body.slice(property.lastIndex, end).trim();
    const arrayOf = /^Array<(\w+)>$/.exec(type)?.[1];
    const single = /^(\w+)$/.exec(type)?.[1];
    const typeName = arrayOf ?? single;
    properties.set(name, { file: typeName ? typeFiles.get(typeName) : undefined, array: arrayOf !== undefined });
    i = end + 1;
  }
  return properties;
}
