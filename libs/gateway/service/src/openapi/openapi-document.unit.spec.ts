import { describe, expect, it } from '@jest/globals';
import {
  ApiOperations,
  errorEnvelope,
  ErrorCatalogue,
  httpStatusOf,
  type ApiOperation,
  type ErrorCode,
} from '@reelstream/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import type * as z from 'zod';
import { errorCodesOf, generateOpenApi, type OperationName } from './openapi-document.js';

const { document, zodById, documentedExamples } = generateOpenApi();

interface MediaType {
  schema: { $ref?: string };
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  operationId: OperationName;
  parameters: { name: string; in: string; examples?: Record<string, { value: unknown }> }[];
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { content?: Record<string, MediaType> }>;
}

const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, operation]) => ({ path, method, operation: operation as Operation })),
);

function schemaOfRef(ref: string | undefined): z.ZodType {
  const id = ref?.replace('#/components/schemas/', '');
  const schema = id === undefined ? undefined : zodById.get(id);
  if (schema === undefined) throw new Error(`no zod schema for ${String(ref)}`);
  return schema;
}

describe('the OpenAPI document', () => {
  it('validates as OpenAPI 3.1 with @seriousme/openapi-schema-validator', async () => {
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('describes every operation of ApiOperations at its path and method, and nothing else', () => {
    const described = operations
      .map(({ path, method, operation }) => `${operation.operationId} ${method} ${path}`)
      .sort();
    const contracted = Object.entries(ApiOperations)
      .map(([name, operation]: [string, ApiOperation]) => `${name} ${operation.method} ${operation.path}`)
      .sort();
    expect(described).toEqual(contracted);
  });

  it('documents the currency of a registration with examples, and the terms refusals under 422', () => {
    const schemas = (
      document as unknown as {
        components: {
          schemas: Record<string, { properties?: Record<string, { examples?: unknown[]; description?: string }> }>;
        };
      }
    ).components.schemas;
    const currency = schemas['RegisterBonusCallRequest']?.properties?.['currency'];
    expect(currency?.examples).toEqual(['EUR', 'KRW']);
    expect(currency?.description).toContain('fixed for its life');
    const register = operations.find(({ operation }) => operation.operationId === 'registerBonusCall')?.operation;
    const refusals = Object.keys(register?.responses['422']?.content?.['application/json']?.examples ?? {});
    expect(refusals).toEqual(
      expect.arrayContaining([
        'CURRENCY_NOT_ALLOWED',
        'BET_LEVEL_NOT_AVAILABLE',
        'CALL_AMOUNT_LIMIT_EXCEEDED',
        'BASE_BET_LIMIT_EXCEEDED',
      ]),
    );
  });

  it('documents each error code under the status the catalogue gives it', () => {
    for (const { operation } of operations) {
      const codes = errorCodesOf(operation.operationId, ApiOperations[operation.operationId]);
      for (const code of codes) {
        const response = operation.responses[String(httpStatusOf(code))];
        expect(Object.keys(response?.content?.['application/json']?.examples ?? {})).toContain(code);
      }
      const statuses = Object.keys(operation.responses).filter((status) => status !== '200' && status !== '202');
      expect(statuses.sort()).toEqual([...new Set(codes.map((code) => String(httpStatusOf(code))))].sort());
    }
  });

  it('documents 401 and 429 for every operation, and 503 SERVICE_UNAVAILABLE for the ones the ledger or the dispatcher answers', () => {
    for (const { operation } of operations) {
      expect(operation.responses['401']).toBeDefined();
      expect(operation.responses['429']).toBeDefined();
      const unavailable = Object.keys(operation.responses['503']?.content?.['application/json']?.examples ?? {});
      expect(unavailable.includes('SERVICE_UNAVAILABLE')).toBe(
        ['registerBonusCall', 'cancelBonusCall', 'getBonusCall', 'listBonusCalls', 'redriveDeadLetter'].includes(
          operation.operationId,
        ),
      );
    }
  });
});

describe('every example parses with the zod schema it documents', () => {
  it('request body examples parse with the operation body schema', () => {
    let count = 0;
    for (const { operation } of operations) {
      const media = operation.requestBody?.content['application/json'];
      if (media === undefined) continue;
      const schema = schemaOfRef(media.schema.$ref);
      expect(schema).toBe((ApiOperations[operation.operationId] as ApiOperation).body);
      for (const { value } of Object.values(media.examples ?? {})) {
        expect(schema.safeParse(value).success).toBe(true);
        count += 1;
      }
    }
    expect(count).toBeGreaterThanOrEqual(5);
  });

  it('response examples parse with the response schema, error examples with the error envelope at their status', () => {
    for (const { operation } of operations) {
      for (const [status, response] of Object.entries(operation.responses)) {
        const media = response.content?.['application/json'];
        expect(media?.examples).toBeDefined();
        const schema = schemaOfRef(media?.schema.$ref);
        expect(schema).toBe(
          status === '200' || status === '202' ? ApiOperations[operation.operationId].response : errorEnvelope,
        );
        for (const { value } of Object.values(media?.examples ?? {})) {
          const parsed = schema.safeParse(value);
          expect(parsed.success).toBe(true);
          if (status !== '200' && status !== '202')
            expect(String(ErrorCatalogue[(value as { error: { code: ErrorCode } }).error.code].status)).toBe(status);
        }
      }
    }
  });

  it('parameter examples parse with the query or path schema of their operation', () => {
    let count = 0;
    for (const { operation } of operations) {
      const contract: ApiOperation = ApiOperations[operation.operationId];
      for (const parameter of operation.parameters) {
        if (parameter.in === 'header') continue;
        const schema = parameter.in === 'path' ? contract.params : contract.query;
        expect(schema).toBeDefined();
        for (const { value } of Object.values(parameter.examples ?? {})) {
          expect(schema?.safeParse({ [parameter.name]: value }).success).toBe(true);
          count += 1;
        }
      }
    }
    expect(count).toBeGreaterThanOrEqual(6);
  });

  it('schema-level examples, at any depth, parse with the zod schema they were written from', () => {
    const inDocument: unknown[][] = [];
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) return value.forEach(walk);
      if (value === null || typeof value !== 'object') return;
      for (const [key, field] of Object.entries(value)) {
        if (key === 'examples' && Array.isArray(field)) inDocument.push(field);
        else walk(field);
      }
    };
    walk(document);
    expect(inDocument.length).toBeGreaterThan(5);
    for (const examples of inDocument) {
      const sources = documentedExamples.filter(
        (documented) => JSON.stringify(documented.examples) === JSON.stringify(examples),
      );
      expect(sources.length).toBeGreaterThan(0);
      for (const { schema, path } of sources) {
        for (const example of examples)
          expect({ path, success: schema.safeParse(example).success }).toEqual({ path, success: true });
      }
    }
  });
});
