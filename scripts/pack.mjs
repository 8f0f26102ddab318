// `npm run pack`: packs every publishable package (packages/*) into `packs/<name>.tgz`, for
// installing them before they are on the registry (README.md, "Quick start"):
//
//   npm install ../resourcery/packs/resourcery-core.tgz ...
//
// Each `npm pack` builds its package first (`prepack`), after the packages it depends on, so the
// types of one are built against those of the others. The file names carry no version, so the
// README's command stays the same from one release to the next.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const packs = join(root, 'packs');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The folders of packages/, each after the packages of this repository it depends on. */
export function packageOrder() {
  const manifests = new Map(
    readdirSync(join(root, 'packages')).map((dir) => [
      `packages/${dir}`,
      readJson(join(root, 'packages', dir, 'package.json')),
    ]),
  );
  const dirOf = new Map([...manifests].map(([dir, manifest]) => [manifest.name, dir]));
  const order = [];
  const visit = (dir) => {
    if (order.includes(dir)) return;
    const { name, dependencies, peerDependencies, devDependencies } = manifests.get(dir);
    for (const dep of Object.keys({ ...dependencies, ...peerDependencies, ...devDependencies })) {
      if (dirOf.has(dep) && dep !== name) visit(dirOf.get(dep));
    }
    order.push(dir);
  };
  for (const dir of manifests.keys()) visit(dir);
  return order;
}

/** The tarball's file name in packs/: `@resourcery/core` → `resourcery-core.tgz`. */
export const tarballName = (name) => `${name.replace(/^@/, '').replace('/', '-')}.tgz`;

/** Packs every package into packs/ (emptied first); answers `{ name, dir, tarball, size }` for each. */
export function packAll() {
  rmSync(packs, { recursive: true, force: true });
  mkdirSync(packs);
  return packageOrder().map((dir) => {
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', packs], {
      cwd: join(root, dir),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const [pack] = JSON.parse(out);
    const tarball = join(packs, tarballName(pack.name));
    renameSync(join(packs, pack.filename), tarball);
    return { name: pack.name, dir, tarball, size: pack.size };
  });
}

if (import.meta.filename === process.argv[1]) {
  for (const { name, tarball, size } of packAll()) {
    console.log(`${name}: ${relative(root, tarball)} (${(size / 1024).toFixed(1)} KiB)`);
  }
}
