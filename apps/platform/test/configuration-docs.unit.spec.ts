/**
 * docs/configuration.md against the code: every variable of every app's env schema is listed in
 * its section, every default shown as a value is the one the schema applies, no row names a
 * variable nothing reads, and the README links it. So the page cannot go stale unnoticed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { platformEnvShape } from '@reelstream/platform-config';
import { processIdentityEnv } from '@reelstream/platform-runtime';
import { ledgerEnv } from '@reelstream/bonus-service';
import { gameServerEnv } from '@reelstream/game-service';
import { gatewayEnv } from '@reelstream/gateway-service';
import { sandboxEnv } from '@reelstream/sandbox-service';
import { dispatcherEnv } from '@reelstream/wallet-service';
import type * as z from 'zod';
import { REPOSITORY_ROOT } from './support/app-process.js';

type EnvSchema = z.ZodObject;

interface Row {
  variable: string;
  defaultCell: string;
}

/** `## heading` → the rows of its `| variable | default | meaning |` table. */
function sectionsOf(markdown: string): Map<string, Row[]> {
  const sections = new Map<string, Row[]>();
  let rows: Row[] = [];
  for (const line of markdown.split('\n')) {
    const heading = /^## (.+)$/.exec(line);
    if (heading) sections.set(heading[1] ?? '', (rows = []));
    const row = /^\| `([A-Z][A-Z0-9_]*)` \| (.*?) \| /.exec(line);
    if (row) rows.push({ variable: row[1] ?? '', defaultCell: row[2] ?? '' });
  }
  return sections;
}

const doc = readFileSync(join(REPOSITORY_ROOT, 'docs', 'configuration.md'), 'utf8');
const readme = readFileSync(join(REPOSITORY_ROOT, 'README.md'), 'utf8');
const sections = sectionsOf(doc);
const rowsOf = (heading: string) => sections.get(heading) ?? [];
const variablesOf = (heading: string) => rowsOf(heading).map((row) => row.variable);

const IDENTITY = 'Process identity';
const SHARED = 'Every app';
const appSchemas: [string, EnvSchema][] = [
  ['gateway', gatewayEnv],
  ['game-server', gameServerEnv as unknown as EnvSchema],
  ['bonus-ledger', ledgerEnv],
  ['wallet-dispatcher', dispatcherEnv],
  ['operator-sandbox', sandboxEnv],
];
const identityKeys = new Set(Object.keys(processIdentityEnv.shape));
/** Read by every app: the platform shape, and the operators (each app loads them). */
const sharedKeys = new Set(
  [...Object.keys(platformEnvShape), 'OPERATORS_JSON', 'OPERATORS_FILE'].filter((key) => !identityKeys.has(key)),
);
const telemetryKeys = [
  ...readFileSync(join(REPOSITORY_ROOT, 'libs', 'platform', 'telemetry', 'src', 'settings.ts'), 'utf8').matchAll(
    /env\['(OTEL_[A-Z_]+)'\]/g,
  ),
].map((match) => match[1] ?? '');

const sectionOf = (key: string, app: string) => (identityKeys.has(key) ? IDENTITY : sharedKeys.has(key) ? SHARED : app);

describe('docs/configuration.md', () => {
  it('lists every variable of every app schema: in the app section, or with those every app reads', () => {
    const missing: string[] = [];
    for (const [app, schema] of appSchemas) {
      for (const key of Object.keys(schema.shape))
        if (!variablesOf(sectionOf(key, app)).includes(key))
          missing.push(`${key} (${app}) in "## ${sectionOf(key, app)}"`);
    }
    for (const key of [...identityKeys])
      if (!variablesOf(IDENTITY).includes(key)) missing.push(`${key} in "## ${IDENTITY}"`);
    expect(missing).toEqual([]);
    expect(sharedKeys.size + identityKeys.size).toBeGreaterThanOrEqual(8);
  });

  it('lists every OTEL_ variable the telemetry settings read', () => {
    expect(telemetryKeys.length).toBeGreaterThanOrEqual(8);
    expect(telemetryKeys.filter((key) => !variablesOf('Telemetry').includes(key))).toEqual([]);
  });

  it('names no variable that nothing reads', () => {
    const known = new Map<string, Set<string>>([
      [SHARED, sharedKeys],
      [IDENTITY, identityKeys],
      ['Telemetry', new Set(telemetryKeys)],
      ...appSchemas.map(([app, schema]) => [app, new Set(Object.keys(schema.shape))] as [string, Set<string>]),
    ]);
    const stale: string[] = [];
    for (const [heading, rows] of sections) {
      for (const { variable } of rows)
        if (!known.get(heading)?.has(variable)) stale.push(`${variable} in "## ${heading}"`);
    }
    expect(stale).toEqual([]);
  });

  it('shows, as a value, exactly the default each schema applies', () => {
    const wrong: string[] = [];
    const check = (heading: string, schema: EnvSchema) => {
      const defaults = schema.parse({}) as Record<string, unknown>;
      for (const { variable, defaultCell } of rowsOf(heading)) {
        const applied = defaults[variable];
        if (applied === undefined) continue; // computed or none: the cell says so in words
        if (variable === 'CATALOG_FILE') {
          if (
            !defaultCell.includes('`config/catalog.json`') ||
            applied !== join(REPOSITORY_ROOT, 'config', 'catalog.json')
          )
            wrong.push(`${heading} ${variable}: ${defaultCell}`);
          continue;
        }
        const literal = /^`([^`]+)`$/.exec(defaultCell)?.[1];
        const shown =
          literal === undefined
            ? undefined
            : (schema.parse({ [variable]: literal }) as Record<string, unknown>)[variable];
        if (shown !== applied)
          wrong.push(
            `${heading} ${variable}: the page shows ${defaultCell}, the schema applies ${JSON.stringify(applied)}`,
          );
      }
    };
    check(SHARED, gatewayEnv);
    for (const [app, schema] of appSchemas) check(app, schema);
    expect(wrong).toEqual([]);
    expect(rowsOf('gateway').length).toBeGreaterThan(5);
  });

  it('is linked from the README, whose table lists every variable and only real ones', () => {
    expect(readme).toContain('](docs/configuration.md)');
    const everything = new Set([
      ...sharedKeys,
      ...identityKeys,
      ...telemetryKeys,
      ...appSchemas.flatMap(([, schema]) => Object.keys(schema.shape)),
    ]);
    const firstCells = [...readme.matchAll(/^\| (`[A-Z][^|]*)\|/gm)].map((match) => match[1] ?? '');
    const inReadme = firstCells.flatMap((cell) =>
      [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
    );
    expect(inReadme.filter((key) => !everything.has(key))).toEqual([]);
    expect([...everything].filter((key) => !key.startsWith('OTEL_') && !inReadme.includes(key))).toEqual([]);
  });
});
