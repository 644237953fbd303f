/**
 * The fields of a parsed query named in `keys` that it has: one the caller left out stays out of the result
 * (rather than standing there as `undefined`), as the ledger's and the reader's filters want.
 */
export function givenFields<Query extends object, Key extends keyof Query>(
  query: Query,
  keys: readonly Key[],
): { [K in Key]?: Exclude<Query[K], undefined> } {
  const given: { [K in Key]?: Exclude<Query[K], undefined> } = {};
  for (const key of keys) {
    const value = query[key];
    if (value !== undefined) given[key] = value as Exclude<Query[Key], undefined>;
  }
  return given;
}
