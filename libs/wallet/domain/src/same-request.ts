/**
 * Whether two wallet requests are the same transaction: equal field by field, whatever the key
 * order (a request read back from the store need not keep the order it was written in).
 */
import type { WalletRequest } from '@reelstream/contracts';

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function sameRequest(a: WalletRequest, b: WalletRequest): boolean {
  return canonical(a) === canonical(b);
}
