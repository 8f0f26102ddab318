// Checks the packages as users get them: `npm pack` each one (which builds it, `prepack`) and
// check the tarball (README, LICENSE, types and both module formats for every export, source
// maps that carry their sources, `files` naming what exists); install the tarballs into an empty
// folder, with no install script warned about but those the root package.json declares in
// `allowScripts`, and nothing of swagger-ui-dist or @scarf/scarf; run the README's quick start
// verbatim with tsx (server and client), typecheck it with tsc, use the packages from plain
// JavaScript through both `import` and `require`; then typecheck and run every example of docs/
// (the files of docs/examples/ and their tests) against the installed tarballs.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const rootManifest = readJson(join(root, 'package.json'));
/** Packages whose install scripts the project declares (root `allowScripts`): the only ones npm may warn about. */
const declaredScripts = new Set(
  Object.entries(rootManifest.allowScripts ?? {})
    .filter(([, allowed]) => allowed === true)
    .map(([name]) => name),
);
// Every publishable package is packed and checked, after those it depends on (packing builds it,
// and its types are built against theirs); the quick start installs those it names.
const packages = [];
const manifests = new Map(
  readdirSync(join(root, 'packages')).map((dir) => [
    `packages/${dir}`,
    readJson(join(root, 'packages', dir, 'package.json')),
  ]),
);
const dirOf = new Map([...manifests].map(([dir, manifest]) => [manifest.name, dir]));
const visit = (dir) => {
  if (packages.includes(dir)) return;
  const { dependencies, peerDependencies, devDependencies } = manifests.get(dir);
  for (const dep of Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })) {
    if (dirOf.has(dep) && dep !== manifests.get(dir).name) visit(dirOf.get(dep));
  }
  packages.push(dir);
};
for (const dir of manifests.keys()) visit(dir);
const work = mkdtempSync(join(tmpdir(), 'resourcery-packages-'));
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const fail = (message) => {
  console.error(`check-packages: ${message}`);
  process.exit(1);
};

/** `npm install` in `cwd`; fails on a warning about an install script the project does not declare. */
function npmInstall(args, cwd) {
  const result = spawnSync('npm', ['install', ...args, '--no-audit', '--no-fund'], { cwd, encoding: 'utf8' });
  if (result.status !== 0) fail(`npm install ${args.join(' ')} failed:\n${result.stderr}`);
  const warned = [...result.stderr.matchAll(/^npm warn install-scripts\s+((?:@[^@\s/]+\/)?[^@\s]+)@\S+ \(/gm)];
  const undeclared = warned.map((match) => match[1]).filter((name) => !declaredScripts.has(name));
  if (undeclared.length) fail(`installing ${args.join(' ')} runs undeclared install scripts: ${undeclared.join(', ')}`);
}

/** The tarball's content checks; answers the list of packed paths. */
function checkTarball(pack, manifest, tarball) {
  const files = pack.files.map((file) => file.path);
  const stray = files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file));
  if (stray.length) fail(`${pack.name} would publish ${stray.join(', ')}`);
  for (const needed of ['README.md', 'LICENSE']) if (!files.includes(needed)) fail(`${pack.name} lacks ${needed}`);
  const unmatched = (manifest.files ?? []).filter(
    (entry) => !files.some((file) => file === entry || file.startsWith(`${entry}/`)),
  );
  if (unmatched.length) fail(`${pack.name}: "files" names ${unmatched.join(', ')}, which do not exist`);
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === './package.json') continue;
    // Types and both module formats for every entry: ESM (`import`) and CommonJS (`require`).
    const paths = ['import', 'require'].flatMap((condition) => [target[condition]?.types, target[condition]?.default]);
    const missing = paths.map((path) => path?.replace(/^\.\//, '')).filter((path) => !path || !files.includes(path));
    if (missing.length)
      fail(`${pack.name} ${subpath}: lacks ${missing.join(', ') || 'a condition'} (types and ESM + CJS)`);
  }
  // Source maps point at src/, which is not published: their sources must be inlined.
  const unpacked = join(work, 'unpacked', pack.name);
  mkdirSync(unpacked, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', unpacked], work);
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources = [], sourcesContent = [] } = readJson(join(unpacked, 'package', map));
    const dangling = sources.filter(
      (source, index) => typeof sourcesContent[index] !== 'string' && !files.includes(posix.join(dirname(map), source)),
    );
    if (dangling.length) fail(`${pack.name} ${map} points at ${dangling.join(', ')}, neither packed nor inlined`);
  }
  return files;
}

/** A free TCP port. */
const freePort = () =>
  new Promise((done) => {
    const probe = createServer().listen(0, () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });

try {
  /** Package name → its tarball and the @resourcery packages it depends on. */
  const packed = new Map();
  for (const dir of packages) {
    const [pack] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], join(root, dir)));
    const manifest = readJson(join(root, dir, 'package.json'));
    const tarball = join(work, pack.filename);
    const files = checkTarball(pack, manifest, tarball);
    console.log(`${pack.name}: ${files.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed`);
    const needs = { ...manifest.dependencies, ...manifest.peerDependencies };
    const deps = Object.keys(needs).filter((name) => name.startsWith('@resourcery/'));
    packed.set(pack.name, { tarball, deps });
  }
  /** A package's tarball and those of the @resourcery packages it needs (not on the registry yet). */
  const tarballsOf = (name, seen = new Set()) => {
    const entry = packed.get(name);
    if (!entry) fail(`the README installs ${name}, which is not a package of this repository`);
    if (seen.has(name)) return [];
    seen.add(name);
    return [entry.tarball, ...entry.deps.flatMap((dep) => tarballsOf(dep, seen))];
  };

  // A new user's empty project, as the README's quick start describes it.
  const app = join(work, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'quick-start', private: true, type: 'module' }));
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const block = (name) => {
    const match = new RegExp(`<!-- ${name} -->\\s*\`\`\`\\w*\\n([\\s\\S]*?)\`\`\``).exec(readme);
    if (!match) fail(`README.md has no code block marked <!-- ${name} -->`);
    return match[1];
  };
  writeFileSync(join(app, 'tsconfig.json'), block('quick-start-tsconfig'));
  const install = block('quick-start-install').trim().split('\n');
  for (const line of install) {
    const args = line.replace(/^npm /, '').split(/\s+/);
    if (args[0] !== 'install') {
      run('npm', args, app);
      continue;
    }
    // The packages are not on the registry yet: install the freshly packed tarballs instead.
    const resolved = [
      ...new Set(args.slice(1).flatMap((arg) => (arg.startsWith('@resourcery/') ? tarballsOf(arg) : [arg]))),
    ];
    npmInstall(resolved, app);
  }
  // The docs page's Swagger UI is an optional peer: neither it nor its telemetry comes with the core.
  for (const unwanted of ['swagger-ui-dist', '@scarf/scarf']) {
    if (existsSync(join(app, 'node_modules', unwanted))) fail(`the quick start installed ${unwanted}`);
  }
  console.log('quick start: installs without undeclared install scripts, swagger-ui-dist or @scarf/scarf');

  const port = await freePort();
  writeFileSync(join(app, 'server.ts'), block('quick-start').replaceAll('3000', String(port)));
  writeFileSync(join(app, 'client.ts'), block('quick-start-client').replaceAll('3000', String(port)));
  run('npx', ['tsc', '--noEmit', '-p', '.'], app);
  console.log('quick start: server.ts and client.ts typecheck');

  // Its own process group, so that stopping it also stops the node process tsx starts.
  const server = spawn(join(app, 'node_modules/.bin/tsx'), ['server.ts'], {
    cwd: app,
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  try {
    await new Promise((done, reject) => {
      server.stdout.on('data', (chunk) => String(chunk).includes(String(port)) && done());
      server.on('exit', (code) => reject(new Error(`quick start exited with ${code}`)));
      setTimeout(() => reject(new Error('quick start did not start within 30 s')), 30_000);
    });
    const url = `http://127.0.0.1:${port}/api/books`;
    const created = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dune', author: 'Frank Herbert' }),
    });
    const body = await created.json();
    if (created.status !== 200 || body.book?.id !== 1)
      fail(`quick start create answered ${created.status} ${JSON.stringify(body)}`);
    const invalid = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    if (invalid.status !== 422) fail(`quick start answered ${invalid.status} to an empty book`);
    const listed = await (await fetch(`${url}?filter[author]=Frank%20Herbert`)).json();
    if (listed.books?.length !== 1) fail(`quick start index answered ${JSON.stringify(listed)}`);
    const docs = await fetch(`http://127.0.0.1:${port}/api/docs`);
    if (docs.status !== 200 || !(await docs.text()).includes('npm install swagger-ui-dist'))
      fail(`without swagger-ui-dist, /api/docs answered ${docs.status} instead of the page saying how to install it`);
    console.log('quick start: runs and serves the contract; /api/docs says how to install swagger-ui-dist');
    const printed = run(join(app, 'node_modules/.bin/tsx'), ['client.ts'], app).trim();
    if (!/^2 1 The Left Hand of Darkness$/.test(printed)) fail(`the quick start's client printed "${printed}"`);
    console.log(`quick start: the client runs (${printed})`);
  } finally {
    process.kill(-server.pid, 'SIGTERM');
  }

  // Plain JavaScript, no decorators syntax: decorators applied as functions.
  const plain = (load) => `
${load}
class Book {}
IsString()(Book.prototype, 'name');
IsString()(Book.prototype, 'author');
const api = createApi({ resources: [defineResource({ name: 'book', model: Book })], store: memoryStore() });
const body = (async function* () { yield '{"name":"Dune","author":"Herbert"}'; })();
api.handle({ method: 'POST', path: '/books', basePath: '/api', rawQuery: '', headers: { 'content-type': 'application/json' }, body })
  .then((response) => {
    if (response.status !== 200 || typeof resourcery !== 'function') { console.error(response); process.exit(1); }
    console.log('ok');
  });
`;
  writeFileSync(
    join(app, 'plain.cjs'),
    plain(`const { createApi, defineResource, memoryStore } = require('@resourcery/core');
const { resourcery } = require('@resourcery/express');
const { IsString } = require('class-validator');`),
  );
  writeFileSync(
    join(app, 'plain.mjs'),
    plain(`import { createApi, defineResource, memoryStore } from '@resourcery/core';
import { resourcery } from '@resourcery/express';
import { IsString } from 'class-validator';`),
  );
  for (const file of ['plain.cjs', 'plain.mjs']) {
    if (run('node', [file], app).trim() !== 'ok') fail(`${file} failed`);
  }
  console.log('plain JavaScript: require and import work');

  await checkDocsExamples([...packed.values()].map((entry) => entry.tarball));
} finally {
  rmSync(work, { recursive: true, force: true });
}

/**
 * The examples of docs/ (the files of docs/examples/, which the pages show) in a project of
 * their own that installs the tarballs: typechecked with the repository's compiler options, and
 * their tests run with Vitest. A file that reaches outside docs/examples/ is left out, with its
 * dependents, and named.
 */
async function checkDocsExamples(tarballs) {
  const source = join(root, 'docs/examples');
  const project = join(work, 'docs-examples');
  const files = readdirSync(source).filter((file) => file.endsWith('.ts'));
  const importsOf = (file) =>
    [...readFileSync(join(source, file), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => m[1]);
  const outside = new Set(files.filter((file) => importsOf(file).some((path) => path.startsWith('../'))));
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
