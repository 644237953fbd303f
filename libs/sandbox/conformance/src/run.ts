/** Runs the suite against one wallet and prints the pass/fail table. */
import type { CallbackIdEncoding, SignatureScheme } from '@reelstream/contracts';
import { CHECKS, CheckFailed, probeBalance, TIME_LIMITS_MS, type SuiteContext } from './checks.js';
import { WalletClient } from '@reelstream/wallet-adapters';

/** What the kit signs with unless told: `timestamp.body`, the scheme of a new operator (an operator guide §7.2). */
export const DEFAULT_SIGNATURE_SCHEME: SignatureScheme = 'timestamp.body';

export interface ConformanceOptions {
  url: string;
  secret: string;
  playerId?: string;
  currency?: string;
  encoding?: CallbackIdEncoding;
  /** The operator's `signatureScheme`; default DEFAULT_SIGNATURE_SCHEME, a new operator's. */
  signatureScheme?: SignatureScheme;
  providerId?: number;
  gameCode?: number;
  /** First transactionId; default derived from the clock so runs never collide. */
  firstTransactionId?: number;
}

interface CheckResult {
  name: string;
  pass: boolean;
  /** Why it failed, or a note on a pass. */
  reason: string;
}

export interface ConformanceReport {
  url: string;
  playerId: string;
  currency: string;
  encoding: CallbackIdEncoding;
  signatureScheme: SignatureScheme;
  results: CheckResult[];
  passed: boolean;
  /** The table's first line, when it is not the wallet suite's. */
  title?: string;
}

export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const playerId = options.playerId ?? 'conformance_player';
  const currency = options.currency ?? 'EUR';
  const encoding = options.encoding ?? 'string';
  const signatureScheme = options.signatureScheme ?? DEFAULT_SIGNATURE_SCHEME;
  // Above any real answer within the limits, so a late answer is measured instead of cut off.
  const client = new WalletClient({
    url: options.url,
    secret: options.secret,
    encoding,
    signatureScheme,
    waitMs: TIME_LIMITS_MS.win + 2_000,
  });
  let id = options.firstTransactionId ?? Date.now() * 1_000;
  const context: SuiteContext = {
    client,
    playerId,
    currency,
    providerId: options.providerId ?? 1,
    gameCode: options.gameCode ?? 1,
    signatureScheme,
    nextId: () => ++id,
    now: () => Date.now(),
  };

  const results: CheckResult[] = [];
  let unusable: string | undefined;
  try {
    await probeBalance(context, `the wallet must know player ${playerId} (${currency}) and accept a win of 0`);
  } catch (error) {
    unusable = error instanceof Error ? error.message : String(error);
  }
  for (const check of CHECKS.filter(
    (candidate) => candidate.schemes === undefined || candidate.schemes.includes(signatureScheme),
  )) {
    if (unusable !== undefined && !check.name.startsWith('time limits')) {
      results.push({ name: check.name, pass: false, reason: `not run: ${unusable}` });
      continue;
    }
    try {
      const note = await check.run(context);
      results.push({ name: check.name, pass: true, reason: note ?? '' });
    } catch (error) {
      const reason =
        error instanceof CheckFailed
          ? error.message
          : `the check could not run: ${error instanceof Error ? error.message : String(error)}`;
      results.push({ name: check.name, pass: false, reason });
    }
  }
  return {
    url: options.url,
    playerId,
    currency,
    encoding,
    signatureScheme,
    results,
    passed: results.every((result) => result.pass),
  };
}

export function formatReport(report: ConformanceReport): string {
  const width = Math.max(...report.results.map((result) => result.name.length));
  const lines = [
    report.title ??
      `wallet conformance: ${report.url} (player ${report.playerId}, ${report.currency}, ids as ${report.encoding}s, signature over ${report.signatureScheme})`,
    '',
    ` #  ${'check'.padEnd(width)}  result  reason`,
    ...report.results.map(
      (result, index) =>
        `${String(index + 1).padStart(2)}  ${result.name.padEnd(width)}  ${result.pass ? 'PASS  ' : 'FAIL  '}  ${result.reason}`,
    ),
    '',
    `${report.results.filter((result) => result.pass).length}/${report.results.length} passed${report.passed ? '' : ` — the ${report.title === undefined ? 'wallet' : 'receiver'} is NOT conformant`}`,
  ];
  return lines.join('\n');
}
