/**
 * One error family: every error class the production code declares (a class named `…Error`, or one
 * that extends a built-in error) derives from the kernel's `ReelstreamError` (`@reelstream/errors`), directly or through
 * another class of the project, so it carries an explicit `retriable` that the consumers' retry and
 * park decisions read (`isRetriable`). An exception is listed below with its reason, never skipped.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

const BASE = 'ReelstreamError';
const BUILT_IN_ERRORS = new Set(['Error', 'RangeError', 'TypeError', 'SyntaxError', 'AggregateError']);
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'test', 'coverage', '.stryker-tmp']);

/** `path:Class` → why it is not a ReelstreamError. */
const EXCEPTIONS: ReadonlyMap<string, string> = new Map([
  ['libs/errors/src/reelstream-error.ts:ReelstreamError', 'the base itself'],
]);

interface Declared {
  readonly file: string;
  readonly name: string;
  readonly parent: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
    return /\.m?ts$/.test(entry.name) && !/\.spec\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

/** Every `class X extends Y` of a text; `Y` without its type arguments or namespace. */
export function declaredClasses(file: string, text: string): Declared[] {
  return [...text.matchAll(/\bclass\s+(\w+)(?:<[^>{]*>)?\s+extends\s+(?:[\w$]+\.)*([\w$]+)/g)].map((match) => ({
    file,
    name: match[1] ?? '',
    parent: match[2] ?? '',
  }));
}

const sources = ['libs', 'apps'].flatMap((root) =>
  sourceFiles(join(REPOSITORY_ROOT, root)).map((path) => ({
    file: relative(REPOSITORY_ROOT, path),
    text: readFileSync(path, 'utf8'),
  })),
);
const declared = sources.flatMap(({ file, text }) => declaredClasses(file, text));

/** `path:Interface` → why this refusal type is still the one value. */
const REFUSAL_NARROWINGS: ReadonlyMap<string, string> = new Map([
  ['libs/wallet/domain/src/errors.ts:WalletRefusal', "narrows `code` to the walletTx decider's codes; adds no field"],
]);

/** Every `interface X extends … Refusal …` of a text: a refusal type beside the one value. */
export function refusalTypes(file: string, text: string): string[] {
  return [...text.matchAll(/\binterface\s+(\w+)(?:<[^>{]*>)?\s+extends\s+([^{]*)\{/g)]
    .filter((match) => /\bRefusal\b/.test(match[2] ?? ''))
    .map((match) => `${file}:${match[1] ?? ''}`);
}

/** Whether `name` reaches the base through classes the project declares (every class of that name must). */
export function derivesFromBase(
  name: string,
  classes: readonly Declared[],
  seen: ReadonlySet<string> = new Set(),
): boolean {
  if (name === BASE) return true;
  const candidates = classes.filter((declaration) => declaration.name === name);
  if (candidates.length === 0 || seen.has(name)) return false;
  const next = new Set([...seen, name]);
  return candidates.every((declaration) => derivesFromBase(declaration.parent, classes, next));
}

/** An error class: named `…Error`, or reaching a built-in error through the project's classes. */
function isErrorClass(declaration: Declared, classes: readonly Declared[]): boolean {
  if (declaration.name.endsWith('Error')) return true;
  let parent = declaration.parent;
  for (const seen = new Set<string>(); !seen.has(parent); seen.add(parent)) {
    if (BUILT_IN_ERRORS.has(parent)) return true;
    const next = classes.find((candidate) => candidate.name === parent);
    if (next === undefined) return false;
    parent = next.parent;
  }
  return false;
}

const keyOf = (declaration: Declared) => `${declaration.file}:${declaration.name}`;

describe('one error family: every error class of the production code is a ReelstreamError', () => {
  it('finds the classes it checks (the walk reaches the libs and the apps)', () => {
    const names = declared.map((declaration) => declaration.name);
    expect(names).toEqual(
      expect.arrayContaining([
        BASE,
        'WrongExpectedRevisionError',
        'FencedOutError',
        'RequestTimeoutError',
        'CliError',
        'AmountError',
        'UnknownCurrencyError',
      ]),
    );
    expect(declared.filter((declaration) => isErrorClass(declaration, declared)).length).toBeGreaterThan(60);
  });

  it('the checks find what they look for', () => {
    const classes = [
      ...declaredClasses('a.ts', 'export class AError extends ReelstreamError {}\nclass BError extends AError {}'),
      ...declaredClasses('b.ts', 'class Lost extends Error {}\nclass Generic<T> extends ns.Base<T> {}'),
    ];
    expect(classes.map(({ name, parent }) => `${name}<${parent}`)).toEqual([
      'AError<ReelstreamError',
      'BError<AError',
      'Lost<Error',
      'Generic<Base',
    ]);
    expect(derivesFromBase('BError', classes)).toBe(true);
    expect(derivesFromBase('Lost', classes)).toBe(false);
    expect(classes.filter((declaration) => isErrorClass(declaration, classes)).map(({ name }) => name)).toEqual([
      'AError',
      'BError',
      'Lost',
    ]);
  });

  it('no error class outside the exceptions stands apart from ReelstreamError', () => {
    const apart = declared
      .filter((declaration) => isErrorClass(declaration, declared) && !derivesFromBase(declaration.name, declared))
      .map(keyOf)
      .filter((key) => !EXCEPTIONS.has(key));
    expect(apart).toEqual([]);
  });

  it('every exception is still one: a class that joined the family, moved or went leaves the list', () => {
    const stillApart = new Set(
      declared
        .filter((declaration) => declaration.name === BASE || !derivesFromBase(declaration.name, declared))
        .map(keyOf),
    );
    expect([...EXCEPTIONS.keys()].filter((key) => !stillApart.has(key))).toEqual([]);
  });
});

describe('one refusal: one value, one thrown form, one HTTP answer', () => {
  it('the check finds a refusal type declared beside the one value', () => {
    expect(refusalTypes('a.ts', 'export interface GameRefusal extends Refusal {\n  retry?: number;\n}')).toEqual([
      'a.ts:GameRefusal',
    ]);
    expect(refusalTypes('b.ts', 'interface Reply extends Envelope, Partial<Refusal> {}')).toEqual(['b.ts:Reply']);
    expect(refusalTypes('c.ts', 'interface Refusals extends Base {}')).toEqual([]);
  });

  it('no production file declares another refusal type or a subclass of RefusedError', () => {
    const found = sources.flatMap(({ file, text }) => refusalTypes(file, text));
    expect(found.filter((key) => !REFUSAL_NARROWINGS.has(key))).toEqual([]);
    expect([...REFUSAL_NARROWINGS.keys()].filter((key) => !found.includes(key))).toEqual([]);
    expect(declared.filter((declaration) => declaration.parent === 'RefusedError').map(keyOf)).toEqual([]);
  });
});
