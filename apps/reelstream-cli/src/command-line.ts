/** How a command reads its arguments: node's `parseArgs`, its options stated by name. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

type Named<Name extends string, Type extends 'string' | 'boolean'> = { readonly [N in Name]: { readonly type: Type } };

/** Options that take a value: `valueOptions('from', 'to')` is `{ from: { type: 'string' }, to: { type: 'string' } }`. */
export function valueOptions<const Name extends string>(...names: readonly Name[]): Named<Name, 'string'> {
  return Object.fromEntries(names.map((name) => [name, { type: 'string' }])) as Named<Name, 'string'>;
}

/** Options that are given or not: `flagOptions('json')` is `{ json: { type: 'boolean' } }`. */
export function flagOptions<const Name extends string>(...names: readonly Name[]): Named<Name, 'boolean'> {
  return Object.fromEntries(names.map((name) => [name, { type: 'boolean' }])) as Named<Name, 'boolean'>;
}

/** `parseArgs`, where an unknown option or a missing value is bad input (exit 2), said with the usage. */
export function parseCommandLine<const Config extends ParseArgsConfig>(config: Config, usage: string) {
  try {
    return parseArgs(config);
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${usage}`);
  }
}
