// Builds the workspaces a program needs, and only those whose build is older than their sources:
// `npm start` answers in a second or two when nothing changed, instead of rebuilding everything.
//
//   node scripts/build-if-stale.mjs [workspace...]   (default: examples/books)
//
// The root `npm start` and every example's start scripts (`npm start -w examples/library`) run it first.
//
// A workspace is built with its own `tsup` after the workspaces it depends on, those of one level
// in parallel. It is stale when a file its build reads (src/ except tests, package.json,
// tsup.config.ts, tsconfig.json, and the shared tsup.shared.ts and tsconfig.base.json) is newer
// than the oldest of its outputs, or when an output its package.json names is missing (a build
// that failed half-way). tsup has no incremental mode, so a stale workspace is built whole.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const SHARED = ['tsup.shared.ts', 'tsconfig.base.json'].map((file) => join(root, file));
const TEST = /\.test(-d)?\.ts$/;

/** Every workspace by package name: its folder and manifest. */
const workspaces = new Map(
  readJson(join(root, 'package.json')).workspaces.map((dir) => {
    const manifest = readJson(join(root, dir, 'package.json'));
    return [manifest.name, { dir, manifest }];
  }),
);

/** Files under `dir`, recursively. */
function filesIn(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The workspaces `name` needs at run time (dependencies and peers), itself last. */
function closure(name, seen = new Map()) {
  if (seen.has(name)) return seen;
  const { manifest } = workspaces.get(name);
  const needs = Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).filter((dep) =>
    workspaces.has(dep),
  );
  for (const dep of needs) closure(dep, seen);
  seen.set(name, needs);
  return seen;
}

/** Why `name` must be built, or `undefined` when its build is current. */
function staleness(name) {
  const { dir, manifest } = workspaces.get(name);
  const folder = join(root, dir);
  if (manifest.scripts?.build === undefined) return undefined;
  const named = JSON.stringify([manifest.exports, manifest.main, manifest.module, manifest.types]);
  const targets = [...new Set(named.match(/\.\/dist\/[^"]+/g) ?? [])].map((target) => join(folder, target));
  const missing = targets.find((target) => !existsSync(target));
  if (missing) return `${relative(root, missing)} is missing`;
  const outputs = targets.length ? targets : filesIn(join(folder, 'dist'));
  if (outputs.length === 0) return 'never built';
  const built = Math.min(...outputs.map((file) => statSync(file).mtimeMs));
  const inputs = [
    ...filesIn(join(folder, 'src')).filter((file) => !TEST.test(file)),
    ...['package.json', 'tsup.config.ts', 'tsconfig.json'].map((file) => join(folder, file)),
    ...SHARED,
  ].filter((file) => existsSync(file));
  const changed = inputs.find((file) => statSync(file).mtimeMs > built);
  return changed ? `${relative(root, changed)} changed` : undefined;
}

/** Runs the workspace's tsup, quietly; its output is shown only when it fails. */
function build(name) {
  const { dir } = workspaces.get(name);
  return new Promise((done, reject) => {
    const child = spawn(join(root, 'node_modules/.bin/tsup'), [], { cwd: join(root, dir), stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? done() : reject(new Error(`${name}: the build failed\n${output}`))));
  });
}

const requested = process.argv.slice(2);
const targets = (requested.length ? requested : ['examples/books']).map((dir) => {
  const found = [...workspaces].find(([, workspace]) => workspace.dir === dir.replace(/\/$/, ''));
  if (!found) throw new Error(`build-if-stale: ${dir} is not a workspace`);
  return found[0];
});
const needs = new Map();
for (const target of targets) for (const [name, deps] of closure(target)) needs.set(name, deps);

const started = Date.now();
const done = new Set();
const rebuilt = [];
try {
  while (done.size < needs.size) {
    // The next level: every workspace whose dependencies are done.
    const level = [...needs].filter(([name, deps]) => !done.has(name) && deps.every((dep) => done.has(dep)));
    await Promise.all(
      level.map(async ([name]) => {
        const reason = staleness(name);
        if (reason) {
          console.log(`building ${name} (${reason})`);
          await build(name);
          rebuilt.push(name);
        }
        done.add(name);
      }),
    );
  }
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
if (rebuilt.length) console.log(`built ${rebuilt.length} of ${needs.size} workspaces in ${Date.now() - started} ms`);
