/** The `webhooks` of the OpenAPI document say what the dispatcher sends (cancel body, bonusId type, timestamp header). */
import { describe, expect, it } from '@jest/globals';
import { callbackRequestFor, HttpHeaders, operatorReply } from '@reelstream/contracts';
import { Validator } from '@seriousme/openapi-schema-validator';
import { generateOpenApi } from './openapi-document.js';

const { document } = generateOpenApi();

interface Webhook {
  parameters: { name: string; in: string; required: boolean; schema: { pattern: string } }[];
  requestBody: {
    content: {
      'application/json': { schema: { $ref: string }; examples: Record<string, { value: Record<string, unknown> }> };
    };
  };
  responses: Record<string, { content: { 'application/json': { examples: Record<string, { value: unknown }> } } }>;
}
const webhook = (document.webhooks['walletCallback'] as { post: Webhook }).post;
const examples = Object.entries(webhook.requestBody.content['application/json'].examples);

describe('webhooks.walletCallback', () => {
  it('is part of a document that validates as OpenAPI 3.1', async () => {
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors).toBeUndefined();
  });

  it('requires X-Request-Timestamp (whole seconds) and X-Request-Signature (lowercase hex) headers', () => {
    const headers = Object.fromEntries(webhook.parameters.map((parameter) => [parameter.name, parameter]));
    expect(headers[HttpHeaders.requestTimestamp]).toMatchObject({
      in: 'header',
      required: true,
      schema: { pattern: '^[0-9]{1,15}$' },
    });
    expect(headers[HttpHeaders.requestSignature]).toMatchObject({
      in: 'header',
      required: true,
      schema: { pattern: '^[0-9a-f]{64}$' },
    });
    expect(JSON.stringify(headers[HttpHeaders.requestSignature])).toContain('timestamp.body');
  });

  it('shows every body in both id encodings, each accepted by the strict schema of its encoding, bonusId always a number', () => {
    expect(examples.length).toBe(10);
    for (const [name, { value }] of examples) {
      const encoding = name.endsWith('_numberIds') ? 'number' : 'string';
      expect({ name, valid: callbackRequestFor(encoding).safeParse(value).success }).toEqual({ name, valid: true });
      expect({ name, bonusId: typeof value['bonusId'] }).toEqual({ name, bonusId: 'number' });
      expect({ name, transactionId: typeof value['transactionId'] }).toEqual({ name, transactionId: encoding });
    }
  });

  it('shows the cancel of a betwin with betAmount and winAmount and no amount, and the cancel of a bet with amount', () => {
    const ofBetwin = examples.find(([name]) => name === 'cancelOfBetwin_stringIds')?.[1].value;
    const betwin = examples.find(([name]) => name === 'betwin_stringIds')?.[1].value;
    expect(ofBetwin).toMatchObject({
      command: 'cancel',
      refTransactionId: betwin?.['transactionId'],
      betAmount: betwin?.['betAmount'],
      winAmount: betwin?.['winAmount'],
    });
    expect(ofBetwin).not.toHaveProperty('amount');
    expect(examples.find(([name]) => name === 'cancelOfBet_numberIds')?.[1].value).toMatchObject({
      command: 'cancel',
      amount: 0.2,
    });
  });

  it('describes the body as the WalletCallback component, whose cancel requires one of its two shapes', () => {
    expect(webhook.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/WalletCallback',
    });
    const component = document.components.schemas['WalletCallback'] as {
      oneOf?: Record<string, unknown>[];
      anyOf?: Record<string, unknown>[];
    };
    const variants = component.oneOf ?? component.anyOf ?? [];
    const cancel = variants.find((variant) => JSON.stringify(variant).includes('"const":"cancel"'));
    expect(cancel?.['oneOf']).toEqual([{ required: ['amount'] }, { required: ['betAmount', 'winAmount'] }]);
    const bonusId = (cancel?.['properties'] as Record<string, Record<string, unknown>>)['bonusId'];
    expect(JSON.stringify(bonusId)).not.toContain('"type":"string"');
  });

  it('reply examples parse with the operator reply schema', () => {
    for (const { value } of Object.values(webhook.responses['200']?.content['application/json'].examples ?? {}))
      expect(operatorReply.safeParse(value).success).toBe(true);
  });
});
