// docs/examples/ from the tarballs (see checkDocsExamples).
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { npmInstall, readJson, root, rootManifest, run } from './support.mjs';

/**
 * The examples of docs/ (the files of docs/examples/, which the pages show) in a project of
 * their own that installs the tarballs: typechecked with the repository's compiler options, and
 * their tests run with Vitest. A file that reaches outside docs/examples/ (imports or reads a file
 * there) is left out, with its dependents, and named.
 */
export async function checkDocsExamples(work, tarballs) {
  const source = join(root, 'docs/examples');
  const project = join(work, 'docs-examples');
  const files = readdirSync(source).filter((file) => file.endsWith('.ts'));
  const importsOf = (file) =>
    [...readFileSync(join(source, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
  // Outside: an import from '../', or a file read from there (a test that reads its page).
  const readsOutside = (file) => /new URL\('\.\.\//.test(readFileSync(join(source, file), 'utf8'));
  const outside = new Set(
    files.filter((file) => importsOf(file).some((path) => path.startsWith('../')) || readsOutside(file)),
  );
  for (let grew = true; grew; ) {
    grew = false;
    for (const file of files) {
      const local = importsOf(file).filter((path) => path.startsWith('./'));
      if (!outside.has(file) && local.some((path) => outside.has(path.slice(2).replace(/\.js$/, '.ts')))) {
        outside.add(file);
        grew = true;
      }
    }
  }
  const kept = files.filter((file) => !outside.has(file));
  mkdirSync(project);
  for (const file of kept) cpSync(join(source, file), join(project, file));
  const base = readJson(join(root, 'tsconfig.base.json')).compilerOptions;
  const compilerOptions = { ...base, declaration: false, sourceMap: false, noEmit: true };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['*.ts'] }, null, 2));
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'docs-examples', private: true, type: 'module' }),
  );
  writeFileSync(join(project, 'vitest.config.mjs'), 'export default { test: { testTimeout: 20000 } };\n');

  // What the examples import from the registry, at the versions the repository uses, with their types.
  const versions = { ...rootManifest.devDependencies };
  const bare = new Set(
    kept
      .flatMap(importsOf)
      .filter((path) => !/^(\.|node:|@resourcery\/)/.test(path))
      .map((path) => (path.startsWith('@') ? path.split('/').slice(0, 2).join('/') : path.split('/')[0])),
  );
  const registry = [...bare, 'reflect-metadata', 'typescript', 'vitest', '@types/node'];
  for (const name of [...bare]) if (versions[`@types/${name}`]) registry.push(`@types/${name}`);
  // better-sqlite3 is a native addon compiled by the repository's `npm ci` (minutes without a
  // prebuilt binary): the examples use that build rather than compiling it a second time.
  const sqlite = registry.indexOf('better-sqlite3');
  if (sqlite !== -1) registry.splice(sqlite, 1);
  npmInstall([...tarballs, ...registry.map((name) => (versions[name] ? `${name}@${versions[name]}` : name))], project);
  if (files.some((file) => /sqlite/.test(readFileSync(join(source, file), 'utf8')))) {
    symlinkSync(join(root, 'node_modules/better-sqlite3'), join(project, 'node_modules/better-sqlite3'), 'dir');
  }
  run('npx', ['tsc', '-p', '.'], project);
  const tests = kept.filter((file) => file.endsWith('.test.ts'));
  run('npx', ['vitest', 'run', '--reporter=dot', '--silent=passed-only'], project);
  const leftOut = outside.size
    ? `; left out (they import files outside docs/examples/): ${[...outside].join(', ')}`
    : '';
  console.log(
    `docs examples: ${kept.length} files typecheck and ${tests.length} test files pass from the tarballs${leftOut}`,
  );
}
