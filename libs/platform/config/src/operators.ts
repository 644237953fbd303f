import { readFileSync } from 'node:fs';
import {
  authenticateOperator,
  operatorTokensOf,
  OperatorsConfigError,
  parseOperatorsConfig,
  parseOperatorsJson,
  type OperatorConfig,
  type OperatorConfigInput,
  type OperatorsConfig,
  type OperatorToken,
  type Refusal,
} from '@reelstream/contracts';
import type { Env } from './env.js';

/** The operator `npm start` runs with when no operators are configured: wired to the sandbox. */
export const DEMO_OPERATOR = {
  id: 'demo',
  name: 'Demo Casino (operator sandbox)',
  apiToken: 'demo-api-token-change-me',
  signingSecret: 'demo-signing-secret-change-me',
  currency: 'EUR',
  timeZone: 'UTC',
} as const;

export function demoOperators(sandboxBaseUrl: string): OperatorConfigInput[] {
  const { id, name, apiToken, signingSecret, currency, timeZone } = DEMO_OPERATOR;
  return [
    {
      id,
      name,
      apiToken,
      signingSecret,
      currency,
      timeZone,
      callbackUrl: `${sandboxBaseUrl.replace(/\/+$/, '')}/wallet/${id}`,
      allowedReturnOrigins: [],
      callbackIdEncoding: 'string',
      // The demo launches streamer sessions too (the sandbox's and the replay's flows show both profiles).
      features: { regularBonusCall: false, streamers: true },
    },
  ];
}

export interface LoadedOperators {
  operators: OperatorsConfig;
  /** Where they came from: `OPERATORS_JSON`, the file path, or `demo`. */
  source: string;
}

/**
 * Operators from `OPERATORS_JSON`, else from the file named by `OPERATORS_FILE`, else the demo
 * operators. Both set is an error: one source of truth.
 */
export function loadOperators(env: Env, demo: () => OperatorConfigInput[]): LoadedOperators {
  const json = env['OPERATORS_JSON'];
  const file = env['OPERATORS_FILE'];
  if (json && file) throw new OperatorsConfigError('environment', ['set OPERATORS_JSON or OPERATORS_FILE, not both']);
  if (json) return { operators: parseOperatorsJson(json, 'OPERATORS_JSON'), source: 'OPERATORS_JSON' };
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new OperatorsConfigError(`OPERATORS_FILE ${file}`, [`cannot read the file: ${(error as Error).message}`]);
    }
    return { operators: parseOperatorsJson(text, `OPERATORS_FILE ${file}`), source: file };
  }
  return { operators: parseOperatorsConfig(demo(), 'demo operators'), source: 'demo' };
}

/** Looks operators up by id; authenticates a request by contracts' `authenticateOperator` (spec §5). */
export class OperatorDirectory {
  private readonly byId: ReadonlyMap<string, OperatorConfig>;
  private readonly tokens: readonly OperatorToken<OperatorConfig>[];

  constructor(readonly operators: OperatorsConfig) {
    this.byId = new Map(operators.map((operator) => [operator.id, operator]));
    this.tokens = operatorTokensOf(operators);
  }

  get(id: string): OperatorConfig | undefined {
    return this.byId.get(id);
  }

  /** The operator a request's Authorization header names, or the `UNAUTHORIZED` refusal. */
  authenticate(authorization: string | undefined): OperatorConfig | Refusal {
    return authenticateOperator(authorization, this.tokens);
  }
}
