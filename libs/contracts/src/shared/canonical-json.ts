/**
 * One JSON text per value, whatever the order its keys were written in: the request hashes
 * (D17's registration fingerprint, the sandbox's replay check) and the wallet's "same request"
 * test compare values through it, so a value read back from a store or a wire compares equal.
 */

/** JSON with object keys in sorted order at every depth (arrays keep their order); undefined fields are left out. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
