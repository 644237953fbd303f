// Counts the names each lib's index exports and how many of them no file outside that lib imports
// (the "unused exports" figure). `npm run deadcode` (knip) says which ones; this says how many.
// Usage: node --import tsx scripts/lib-exports.ts [--list]
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const list = process.argv.includes('--list');

interface Lib {
  readonly name: string;
  readonly dir: string;
  readonly index: string;
}

function findLibs(dir: string): Lib[] {
  const manifest = join(dir, 'package.json');
  const index = join(dir, 'src', 'index.ts');
  if (existsSync(manifest) && existsSync(index)) {
    const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string };
    return [{ name, dir, index }];
  }
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => findLibs(join(dir, entry.name)));
}

const libs = findLibs(join(root, 'libs'));
const config = ts.getParsedCommandLineOfConfigFile(
  join(root, 'tsconfig.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    },
  },
);
if (!config) throw new Error('cannot read tsconfig.json');
const program = ts.createProgram(config.fileNames, config.options);
const checker = program.getTypeChecker();

/** Names imported from each package by files outside it; '*' means every name (namespace import, export *). */
const usedByName = new Map<string, Set<string>>();
const byPackage = new Map(libs.map((lib) => [lib.name, lib]));
for (const file of program.getSourceFiles()) {
  if (file.fileName.includes('/node_modules/')) continue;
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
    const specifier = statement.moduleSpecifier;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const lib = byPackage.get(specifier.text);
    if (!lib || resolve(file.fileName).startsWith(lib.dir + '/')) continue;
    const used = usedByName.get(lib.name) ?? new Set<string>();
    usedByName.set(lib.name, used);
    if (ts.isImportDeclaration(statement)) {
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || ts.isNamespaceImport(bindings)) used.add('*');
      else for (const element of bindings.elements) used.add((element.propertyName ?? element.name).text);
    } else if (!statement.exportClause || ts.isNamespaceExport(statement.exportClause)) used.add('*');
    else for (const element of statement.exportClause.elements) used.add((element.propertyName ?? element.name).text);
  }
}

let exported = 0;
let unused = 0;
for (const lib of libs) {
  const source = program.getSourceFile(lib.index);
  const symbol = source && checker.getSymbolAtLocation(source);
  if (!symbol) continue;
  const names = checker.getExportsOfModule(symbol).map((s) => s.name);
  const used = usedByName.get(lib.name) ?? new Set<string>();
  const notUsed = used.has('*') ? [] : names.filter((name) => !used.has(name));
  exported += names.length;
  unused += notUsed.length;
  if (list && notUsed.length > 0) console.log(`${relative(root, lib.index)}: ${notUsed.join(', ')}`);
}
console.log(
  `${libs.length} libs export ${exported} names from their index; ${unused} are not imported outside their lib`,
);
