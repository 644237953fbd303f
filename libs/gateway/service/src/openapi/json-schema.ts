/**
 * zod → JSON Schema 2020-12 for OpenAPI 3.1: every schema with a meta `id` becomes a named
 * component, referenced as `#/components/schemas/{id}`. One set of components is shared by all
 * operations; the same id must convert to the same JSON Schema everywhere.
 */
import * as z from 'zod';

export type JsonSchema = Record<string, unknown>;

const COMPONENT_PREFIX = '#/components/schemas/';

export class ComponentSchemas {
  readonly schemas: Record<string, JsonSchema> = {};
  /** The zod schema behind each component, so examples can be checked against what they document. */
  readonly zodById = new Map<string, z.ZodType>();
  /** Every JSON Schema `examples` written, with the zod schema it was written from. */
  readonly documentedExamples: { path: string; schema: z.ZodType; examples: readonly unknown[] }[] = [];

  /** The JSON Schema of `schema` in its wire (input) form; a `$ref` when it is named. */
  add(schema: z.ZodType): JsonSchema {
    const converted = z.toJSONSchema(schema, {
      io: 'input',
      target: 'draft-2020-12',
      unrepresentable: 'any',
      override: ({ zodSchema, jsonSchema, path }) => {
        const source = zodSchema as unknown as z.ZodType;
        const id = z.globalRegistry.get(source)?.id;
        if (typeof id === 'string') this.zodById.set(id, source);
        if (Array.isArray(jsonSchema.examples))
          this.documentedExamples.push({ path: path.join('.'), schema: source, examples: jsonSchema.examples });
      },
    }) as JsonSchema;
    const { $schema: _dialect, $defs, ...root } = converted;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>))
      this.define(id, rewriteRefs(definition) as JsonSchema);
    return rewriteRefs(root) as JsonSchema;
  }

  /** The JSON Schema a named component stands for, with its `$ref`s still pointing at components. */
  resolve(schema: JsonSchema): JsonSchema {
    const ref = schema['$ref'];
    if (typeof ref === 'string' && ref.startsWith(COMPONENT_PREFIX)) {
      const found = this.schemas[ref.slice(COMPONENT_PREFIX.length)];
      if (found === undefined) throw new Error(`no component ${ref}`);
      return found;
    }
    return schema;
  }

  private define(id: string, definition: JsonSchema): void {
    const existing = this.schemas[id];
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(definition)) {
      throw new Error(`schema id ${id} converts to two different JSON Schemas; give one of them another id`);
    }
    this.schemas[id] = definition;
  }
}

export function componentRef(id: string): JsonSchema {
  return { $ref: `${COMPONENT_PREFIX}${id}` };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    out[key] =
      key === '$ref' && typeof field === 'string' && field.startsWith('#/$defs/')
        ? COMPONENT_PREFIX + field.slice('#/$defs/'.length)
        : rewriteRefs(field);
  }
  return out;
}
