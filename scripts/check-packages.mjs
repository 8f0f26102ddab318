// Checks the packages as users get them: `npm pack` each one, install the tarballs into an
// empty folder, run the README's quick start verbatim with tsx, typecheck it with tsc, and use
// the packages from plain JavaScript through both `import` and `require`.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
// Every publishable package is packed and checked; the quick start installs those it names.
const packages = readdirSync(join(root, 'packages')).map((name) => `packages/${name}`);
const work = mkdtempSync(join(tmpdir(), 'resourcery-packages-'));
const run = (command, args, cwd) =>
  execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
const fail = (message) => {
  console.error(`check-packages: ${message}`);
  process.exit(1);
};

try {
  /** Package name → its tarball and the @resourcery packages it depends on. */
  const packed = new Map();
  for (const dir of packages) {
    const [pack] = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], join(root, dir)));
    const files = pack.files.map((file) => file.path);
    const stray = files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file));
    if (stray.length) fail(`${pack.name} would publish ${stray.join(', ')}`);
    const manifest = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const targets = JSON.stringify(manifest.exports).match(/"\.\/dist\/[^"]+"/g) ?? [];
    const missing = targets.map((target) => target.slice(3, -1)).filter((target) => !files.includes(target));
    if (missing.length)
      fail(`${pack.name} lacks ${missing.join(', ')} named by its exports map (run npm run build first)`);
    console.log(`${pack.name}: ${files.length} files, ${(pack.size / 1024).toFixed(1)} KiB packed`);
    const deps = Object.keys(manifest.dependencies ?? {}).filter((name) => name.startsWith('@resourcery/'));
    packed.set(pack.name, { tarball: join(work, pack.filename), deps });
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
    // The packages are not on the registry yet: install the freshly packed tarballs instead.
    const resolved = [...new Set(args.flatMap((arg) => (arg.startsWith('@resourcery/') ? tarballsOf(arg) : [arg])))];
    run('npm', [...resolved, '--no-audit', '--no-fund', '--loglevel=error'], app);
  }

  const port = await new Promise((done) => {
    const probe = createServer().listen(0, () => {
      const { port: free } = probe.address();
      probe.close(() => done(free));
    });
  });
  writeFileSync(join(app, 'server.ts'), block('quick-start').replaceAll('3000', String(port)));
  run('npx', ['tsc', '--noEmit', '-p', '.'], app);
  console.log('quick start: typechecks');

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
    console.log('quick start: runs and serves the contract');
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
} finally {
  rmSync(work, { recursive: true, force: true });
}
