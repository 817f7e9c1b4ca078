// Part of `npm run verify`: every value src/ exports (function, constant, class) has a use outside
// the tests: in its own file or in src/, scripts/, bench/ or the SDK. One used only by tests is dead
// or half-built: delete it, or give it its real caller. (Exporting a pure helper for its unit test
// is fine as long as the code itself uses it.) Types are left out: they cost nothing at run time.
//
// The TypeScript compiler API resolves every identifier to the declaration it names, through
// imports and re-exports (`export { x } from './commands.ts'` in a service.ts counts only when
// someone uses the re-export), and through `const { x } = await import(...)` (the CLI's lazy
// loading). ALLOWED lists the exceptions, each with its reason.
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** file:name -> why it may stay exported without another caller. */
const ALLOWED: Record<string, string> = {};

const isTest = (file: string) => /\.test\.ts$/.test(file) || relative(ROOT, file).startsWith(`test/`) || relative(ROOT, file).startsWith('sdk/test/');
const inSrc = (file: string) => relative(ROOT, file).startsWith('src/');

function loadProgram(): ts.Program {
  const configPath = join(ROOT, 'tsconfig.json');
  const read = ts.readConfigFile(configPath, (path) => ts.sys.readFile(path));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
  return ts.createProgram(parsed.fileNames, parsed.options);
}

const program = loadProgram();
const checker = program.getTypeChecker();
const files = program.getSourceFiles().filter((file) => !file.isDeclarationFile && !file.fileName.includes('/node_modules/'));

const original = (symbol: ts.Symbol): ts.Symbol => (symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol);

// The exported values of src/, by their declaration's symbol.
const exported = new Map<ts.Symbol, { file: string; name: string }>();
for (const file of files) {
  if (!inSrc(file.fileName) || isTest(file.fileName)) continue;
  const moduleSymbol = checker.getSymbolAtLocation(file);
  if (!moduleSymbol) continue;
  for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
    const target = original(symbol);
    if (!(target.flags & ts.SymbolFlags.Value)) continue;
    const declaration = target.declarations?.[0];
    // Re-exports are judged where they are declared.
    if (!declaration || declaration.getSourceFile() !== file) continue;
    exported.set(target, { file: relative(ROOT, file.fileName), name: symbol.getName() });
  }
}

// Every use outside the tests.
const used = new Set<ts.Symbol>();
for (const file of files) {
  if (isTest(file.fileName)) continue;
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && !ts.isExportSpecifier(node.parent)) {
      let symbol: ts.Symbol | undefined;
      const parent = node.parent;
      if (ts.isBindingElement(parent) && ts.isObjectBindingPattern(parent.parent) && (parent.propertyName ?? parent.name) === node) {
        // const { name } = await import('./x.ts'): the property of the module it names.
        symbol = checker.getTypeAtLocation(parent.parent).getProperty((parent.propertyName ?? parent.name).getText());
      } else {
        symbol = checker.getSymbolAtLocation(node);
      }
      if (symbol) {
        const target = original(symbol);
        // The declaration's own name is not a use.
        if (!target.declarations?.some((declaration) => (declaration as ts.NamedDeclaration).name === node)) used.add(target);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

const unused = [...exported]
  .filter(([symbol, where]) => !used.has(symbol) && !ALLOWED[`${where.file}:${where.name}`])
  .map(([, where]) => `${where.file}: ${where.name}`)
  .sort();
if (unused.length > 0) {
  console.error(`Exported but used only by tests, or not at all (delete it, or give it its real caller):\n  ${unused.join('\n  ')}`);
  process.exit(1);
}
console.log(`exports: ${exported.size} exported values of src/, each used outside the tests`);
