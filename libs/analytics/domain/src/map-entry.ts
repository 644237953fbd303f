/** The entry of `key` in `map`: made by `create`, and kept there, the first time it is asked for. */
export function entryOf<Key, Value>(map: Map<Key, Value>, key: Key, create: () => Value): Value {
  let value = map.get(key);
  if (value === undefined) {
    value = create();
    map.set(key, value);
  }
  return value;
}
