/**
 * What the log does not hold and the reports need: the operators' time zones (their
 * configuration: `--operators <file>`, else OPERATORS_JSON / OPERATORS_FILE, else the demo
 * operator) and the game catalogue's target RTPs (`--catalog`, else CATALOG_FILE, else the
 * repository's config/catalog.json). Shared by every command.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CATALOG_FILE, demoOperators, loadOperators } from '@reelstream/platform-config';
import { loadCatalogFile } from '@reelstream/game-adapters';
import { parseOperatorsJson, type OperatorsConfig, type Catalog } from '@reelstream/contracts';
import { CliError } from './cli-error.js';
import type { CliIo } from './command-registry.js';

export interface Operators {
  readonly config: OperatorsConfig;
  /** Where they came from, for messages. */
  readonly source: string;
  /** The configured zone; UTC for an operator the configuration does not list. */
  timeZoneOf(operatorId: string): string;
  has(operatorId: string): boolean;
}

export function loadOperatorSettings(file: string | undefined, io: CliIo): Operators {
  let config: OperatorsConfig;
  let source: string;
  try {
    if (file !== undefined) {
      const path = resolve(io.cwd, file);
      let text: string;
      try {
        text = readFileSync(path, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read --operators ${path}: ${(error as Error).message}`);
      }
      config = parseOperatorsJson(text, `--operators ${path}`);
      source = path;
    } else {
      ({ operators: config, source } = loadOperators(io.env, () => demoOperators('http://localhost')));
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError((error as Error).message);
  }
  const zones = new Map(config.map((operator) => [operator.id, operator.timeZone]));
  return {
    config,
    source,
    timeZoneOf: (operatorId) => zones.get(operatorId) ?? 'UTC',
    has: (operatorId) => zones.has(operatorId),
  };
}

export function loadCatalogSetting(file: string | undefined, io: CliIo): Catalog {
  const path = file ?? io.env['CATALOG_FILE'] ?? DEFAULT_CATALOG_FILE;
  try {
    return loadCatalogFile(resolve(io.cwd, path));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
}
