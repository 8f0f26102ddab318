// The public API is documented: every export of every package entry (as users import it)
// has a TSDoc comment, and every exported function, class and constant an @example as well.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '..');
const entries = [];
for (const pkg of readdirSync(join(root, 'packages'))) {
  const manifest = JSON.parse(readFileSync(join(root, 'packages', pkg, 'package.json'), 'utf8'));
  for (const subpath of Object.keys(manifest.exports ?? {})) {
    if (subpath === './package.json') continue;
    const name = subpath === '.' ? 'index' : subpath.slice(2);
    const candidates = name === 'index' ? ['index.ts'] : [`${name}.ts`, `${name}/index.ts`];
    const file = candidates.map((candidate) => join(root, 'packages', pkg, 'src', candidate)).find(existsSync);
    if (!file) throw new Error(`${manifest.name}${subpath.slice(1)}: no source entry (${candidates.join(' or ')})`);
    entries.push({ label: `${manifest.name}${subpath.slice(1)}`, file });
  }
}

const program = ts.createProgram(
  entries.map((entry) => entry.file),
  {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    experimentalDecorators: true,
    skipLibCheck: true,
  },
);
const checker = program.getTypeChecker();
const missing = [];
for (const { label, file } of entries) {
  const module = checker.getSymbolAtLocation(program.getSourceFile(file));
  for (const exported of checker.getExportsOfModule(module)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration) continue;
    const docs = ts.getJSDocCommentsAndTags(declaration);
    const typeOnly = ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration);
    const hasExample = docs.some((doc) =>
      (ts.isJSDoc(doc) ? (doc.tags ?? []) : [doc]).some((tag) => tag.tagName?.text === 'example'),
    );
    if (docs.length === 0) missing.push(`${label} ${exported.name}: no TSDoc comment`);
    else if (!typeOnly && !hasExample) missing.push(`${label} ${exported.name}: TSDoc has no @example`);
  }
}

if (missing.length) {
  console.error(`check-tsdoc: ${missing.length} public exports lack documentation:\n${missing.join('\n')}`);
  process.exit(1);
}
console.log(`check-tsdoc: every public export of ${entries.map((entry) => entry.label).join(', ')} is documented`);
