// Lists every production function in libs/ and apps/ longer than 60 lines ("no production
// function is longer than 60 lines without a comment saying why") and whether it says why.
// Convention: a comment directly above the function (or above the statement, property or member
// that holds it) containing "long because" gives the reason, e.g. `// Long because: one table…`.
// Usage: npm run long-functions [-- --max 60]. Exits 1 when a long function gives no reason.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const maxIndex = process.argv.indexOf('--max');
const maxLines = maxIndex > 0 ? Number(process.argv[maxIndex + 1]) : 60;
const REASON = /long because/i;

/** Test code is not production: specs, and the shared contract suites (`*.contract.ts`, describe/it bodies). */
function isProductionSource(path: string): boolean {
  return path.endsWith('.ts') && !path.endsWith('.d.ts') && !/\.(spec|contract)\.ts$/.test(path);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return ['node_modules', 'test', 'dist', 'public'].includes(entry.name) ? [] : sourceFiles(path);
    }
    return isProductionSource(path) ? [path] : [];
  });
}

function nameOf(node: ts.Node): string {
  const named = node as { name?: ts.Node };
  if (named.name && (ts.isIdentifier(named.name) || ts.isPrivateIdentifier(named.name))) return named.name.text;
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isPropertyDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (ts.isCallExpression(parent)) return `(callback of ${parent.expression.getText().slice(0, 40)})`;
  return '(anonymous)';
}

/** The comments directly above the function, or above what holds it (a const, a property, a call statement). */
function commentsAbove(node: ts.Node, text: string): string {
  const comments: string[] = [];
  for (let at: ts.Node | undefined = node; at && !ts.isSourceFile(at); at = at.parent) {
    for (const range of ts.getLeadingCommentRanges(text, at.getFullStart()) ?? []) {
      comments.push(text.slice(range.pos, range.end));
    }
    if (ts.isStatement(at) || ts.isClassElement(at) || ts.isPropertyAssignment(at)) break;
  }
  return comments.join('\n');
}

interface LongFunction {
  readonly where: string;
  readonly name: string;
  readonly lines: number;
  readonly reason: boolean;
}

function longFunctionsOf(path: string): LongFunction[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > maxLines) {
        const where = `${relative(root, path)}:${start + 1}`;
        found.push({ where, name: nameOf(node), lines, reason: REASON.test(commentsAbove(node, text)) });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

const all = ['libs', 'apps'].flatMap((dir) => sourceFiles(join(root, dir))).flatMap(longFunctionsOf);
for (const fn of all) {
  console.log(`${fn.where}  ${fn.name}  ${fn.lines} lines  ${fn.reason ? 'says why' : 'NO REASON'}`);
}
const unexplained = all.filter((fn) => !fn.reason).length;
console.log(`${all.length} functions over ${maxLines} lines; ${unexplained} without a "long because" comment`);
process.exitCode = unexplained > 0 ? 1 : 0;
