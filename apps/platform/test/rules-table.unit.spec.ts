/**
 * "no lib other than domain libs holds a spec rule; the table names a domain file for
 * each". The "where is the rule for X" table of docs/architecture.md must name, for every rule,
 * files of a pure library that exist and contain the names given beside them; and decisions.md,
 * whose first "where" file is the one that decides, must agree with it for every decision the
 * table cites.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { REPOSITORY_ROOT } from './support/app-process.js';

/** Domain libraries; contracts for the wire format, money and errors (the kernel) for amounts and error codes, as the doc explains. */
const PURE_LIBRARY = /^libs\/(?:[a-z-]+\/domain|contracts|money|errors)\/src\//;

const read = (path: string) => readFileSync(join(REPOSITORY_ROOT, path), 'utf8');

interface Placement {
  readonly path: string;
  readonly names: readonly string[];
}

interface RuleRow {
  readonly id: string;
  readonly source: string;
  readonly decidedIn: readonly Placement[];
}

/** `libs/…/file.ts` (`name`, `other`); `libs/…/another.ts` (`name`) → one placement per file. */
function placementsOf(cell: string): Placement[] {
  return cell.split(';').flatMap((part) => {
    const quoted = [...part.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? '');
    const [path, ...names] = quoted;
    return path === undefined ? [] : [{ path, names }];
  });
}

function cellsOf(line: string): string[] {
  return line
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.trim());
}

function ruleRows(): RuleRow[] {
  const text = read('docs/architecture.md');
  const start = text.indexOf('## Where is the rule for X');
  if (start < 0) throw new Error('docs/architecture.md has no "Where is the rule for X" section');
  const end = text.indexOf('\n## ', start + 1);
  return text
    .slice(start, end < 0 ? undefined : end)
    .split('\n')
    .filter((line) => /^\| R\d+ \|/.test(line))
    .map((line) => {
      const [id = '', , source = '', decidedIn = ''] = cellsOf(line);
      return { id, source, decidedIn: placementsOf(decidedIn) };
    });
}

/** decisions.md: D-number → the first file of its section's "Where". */
function decidingFiles(): Map<string, string> {
  const sections = read('docs/decisions.md')
    .split(/^## (?=D\d+$)/m)
    .slice(1);
  return new Map(
    sections.map((section) => {
      const where = /^\*\*Where\.\*\* (.*)$/m.exec(section)?.[1] ?? '';
      return [section.split('\n')[0]?.trim() ?? '', /`([^`]+)`/.exec(where)?.[1] ?? ''];
    }),
  );
}

describe('the "where is the rule for X" table', () => {
  const rows = ruleRows();

  it('lists the rules, each once, each decided somewhere', () => {
    expect(rows.length).toBeGreaterThanOrEqual(35);
    expect(new Set(rows.map((row) => row.id)).size).toBe(rows.length);
    expect(rows.filter((row) => row.decidedIn.length === 0).map((row) => row.id)).toEqual([]);
  });

  it('names only existing files of a domain library (or contracts, the kernel: money, errors)', () => {
    const wrong = rows.flatMap((row) =>
      row.decidedIn
        .filter(({ path }) => !PURE_LIBRARY.test(path) || !existsSync(join(REPOSITORY_ROOT, path)))
        .map(({ path }) => `${row.id}: ${path}`),
    );
    expect(wrong).toEqual([]);
  });

  it('names functions and constants that are in the files it names', () => {
    const missing = rows.flatMap((row) =>
      row.decidedIn.flatMap(({ path, names }) => {
        if (!existsSync(join(REPOSITORY_ROOT, path))) return [];
        const source = read(path);
        return names.filter((name) => !source.includes(name)).map((name) => `${row.id}: ${name} in ${path}`);
      }),
    );
    expect(missing).toEqual([]);
  });

  it('covers every decision of docs/decisions.md that is a rule', () => {
    const cited = new Set(rows.flatMap((row) => [...row.source.matchAll(/D(\d+)/g)].map((match) => `D${match[1]}`)));
    // D13, D15 and D23 name endpoints, not rules.
    const rules = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 17, 18, 19, 20, 21, 22, 24, 25].map((n) => `D${n}`);
    expect(rules.filter((decision) => !cited.has(decision))).toEqual([]);
  });

  it('agrees with decisions.md: the file that decides a cited decision is one the table names for it', () => {
    const deciding = decidingFiles();
    expect(deciding.size).toBe(25);
    const disagreements = [...deciding].flatMap(([decision, file]) => {
      const citing = rows.filter((row) => new RegExp(`\\b${decision}\\b`).test(row.source));
      if (citing.length === 0) return [];
      const named = new Set(citing.flatMap((row) => row.decidedIn.map(({ path }) => path)));
      return named.has(file) ? [] : [`${decision}: decisions.md names ${file} first; the table names ${[...named]}`];
    });
    expect(disagreements).toEqual([]);
  });

  it('reads what it should (the parser finds the rows and their names)', () => {
    const register = rows.find((row) => row.id === 'R1');
    expect(register?.decidedIn).toEqual([
      { path: 'libs/bonus/domain/src/decide-register.ts', names: ['decideRegister'] },
    ]);
    expect(placementsOf('`libs/a/domain/src/x.ts` (`f`, `g`); `libs/contracts/src/y.ts`')).toEqual([
      { path: 'libs/a/domain/src/x.ts', names: ['f', 'g'] },
      { path: 'libs/contracts/src/y.ts', names: [] },
    ]);
    expect(PURE_LIBRARY.test('libs/gateway/service/src/bonus/register-command.ts')).toBe(false);
    expect(PURE_LIBRARY.test('libs/wallet/adapters/src/signature.ts')).toBe(false);
  });
});
