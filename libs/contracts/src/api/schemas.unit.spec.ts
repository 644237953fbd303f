import { describe, expect, it } from '@jest/globals';
import * as z from 'zod';
import { ApiOperations, ApiSchemas, apiSchemaMeta } from './schemas.js';

describe('API schemas serialise to JSON Schema for the OpenAPI 3.1 document', () => {
  const named = ApiSchemas.map((schema) => ({ schema, ...apiSchemaMeta(schema) }));

  it('covers every request and response of every operation, each with a unique id', () => {
    const ids = named.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(
      [
        'BonusCallPathParams',
        'CampaignPathParams',
        'CampaignProgressQuery',
        'CampaignProgressResponse',
        'CancelBonusCallRequest',
        'CancelBonusCallResponse',
        'ErrorEnvelope',
        'GetBonusCallResponse',
        'LaunchGameRequest',
        'LaunchGameResponse',
        'ListBonusCallsQuery',
        'ListBonusCallsResponse',
        'ListGamesQuery',
        'ListGamesResponse',
        'ListProvidersResponse',
        'RegisterBonusCallRequest',
        'RegisterBonusCallResponse',
        'GetRoundResponse',
        'RoundPathParams',
        'ListTransactionsQuery',
        'ListTransactionsResponse',
        'ListDeadLettersQuery',
        'ListDeadLettersResponse',
        'RedrivePathParams',
        'RedriveResponse',
        'StartCampaignRequest',
        'StartCampaignResponse',
        'WalletHealthResponse',
        'ListWebhookDeadLettersResponse',
        'WebhookRedrivePathParams',
        'WebhookRedriveResponse',
      ].sort(),
    );
  });

  it.each(named.map((entry) => [entry.id, entry] as const))(
    '%s: converts in input mode, is described, and every example parses',
    (id, { schema, description, examples }) => {
      const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as {
        $ref?: string;
        $defs?: Record<string, { description?: string }>;
      };
      expect(json.$ref).toBe(`#/$defs/${id}`);
      expect(json.$defs?.[id]?.description).toBe(description);
      expect(description.length).toBeGreaterThan(10);
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) {
        const result = schema.safeParse(example);
        expect(result.error?.issues ?? []).toEqual([]);
      }
    },
  );

  it('documents the register body as the operator sends it, not the normalised output', () => {
    const json = z.toJSONSchema(ApiOperations.registerBonusCall.body, { io: 'input', target: 'draft-2020-12' }) as {
      $defs: Record<string, { properties: Record<string, unknown>; additionalProperties: boolean; required: string[] }>;
    };
    const register = json.$defs.RegisterBonusCallRequest;
    expect(Object.keys(register?.properties ?? {})).toEqual([
      'platformId',
      'issueId',
      'providerId',
      'gameId',
      'playerId',
      'bonusType',
      'callAmount',
      'currency',
      'expireAt',
      'metaData',
    ]);
    expect(register?.required).toEqual(['providerId', 'gameId', 'playerId', 'bonusType', 'callAmount', 'expireAt']);
    expect(register?.additionalProperties).toBe(false);
  });

  it('refuses a schema without an id', () => {
    expect(() => apiSchemaMeta(z.object({}))).toThrow(/not a named API schema/);
  });
});
