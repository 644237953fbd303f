import { readFileSync } from 'node:fs';
import {
  authenticateOperator,
  operatorTokensOf,
  OperatorsConfigError,
  parseOperatorsConfig,
  parseOperatorsDocumentJson,
  type OperatorConfig,
  type OperatorConfigInput,
  type OperatorsConfig,
  type OperatorsDocument,
  type OperatorToken,
  type Refusal,
} from '@reelstream/contracts';
import type { Env } from './env.js';
import { isProduction, productionProblems } from './production.js';

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
 * operators. Both set is an error: one source of truth. In production mode (`NODE_ENV=production`)
 * the demo operators are refused, and so is a configuration `productionProblems` finds fault with.
 */
export function loadOperators(env: Env, demo: () => OperatorConfigInput[]): LoadedOperators {
  const json = env['OPERATORS_JSON'];
  const file = env['OPERATORS_FILE'];
  if (json && file) throw new OperatorsConfigError('environment', ['set OPERATORS_JSON or OPERATORS_FILE, not both']);
  if (json) return checked(env, parseOperatorsDocumentJson(json, 'OPERATORS_JSON'), 'OPERATORS_JSON');
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      throw new OperatorsConfigError(`OPERATORS_FILE ${file}`, [`cannot read the file: ${(error as Error).message}`]);
    }
    return checked(env, parseOperatorsDocumentJson(text, `OPERATORS_FILE ${file}`), `OPERATORS_FILE ${file}`, file);
  }
  if (isProduction(env))
    throw new OperatorsConfigError('environment', [
      "NODE_ENV=production needs OPERATORS_JSON or OPERATORS_FILE: the demo operator's API token and signing secret are public",
    ]);
  return { operators: parseOperatorsConfig(demo(), 'demo operators'), source: 'demo' };
}

function checked(env: Env, document: OperatorsDocument, where: string, source = where): LoadedOperators {
  if (isProduction(env)) {
    const problems = productionProblems(document, {
      apiTokens: [DEMO_OPERATOR.apiToken],
      signingSecrets: [DEMO_OPERATOR.signingSecret],
    });
    if (problems.length > 0) throw new OperatorsConfigError(`${where} (NODE_ENV=production)`, problems);
  }
  return { operators: document.operators, source };
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
