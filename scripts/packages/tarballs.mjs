// What a tarball must hold: README, LICENSE, types and both module formats for every export,
// source maps that carry their sources (src/ is not published), `files` naming what exists; and
// in CommonJS as in ESM, one copy of each module per package, which the entries share.
import { mkdirSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { fail, readJson, run } from './support.mjs';

/** Checks the tarball of one package (extracted under `work`); answers the list of packed paths. */
export function checkTarball(tarball, work) {
  const files = run('tar', ['-tzf', tarball], work)
    .split('\n')
    .filter(Boolean)
    .map((path) => path.replace(/^package\//, ''));
  const unpacked = join(work, 'unpacked', posix.basename(tarball, '.tgz'));
  mkdirSync(unpacked, { recursive: true });
  run('tar', ['-xzf', tarball, '-C', unpacked], work);
  const folder = join(unpacked, 'package');
  const manifest = readJson(join(folder, 'package.json'));
  const { name } = manifest;
  const stray = files.filter((file) => !/^(dist\/|package\.json$|README\.md$|LICENSE$)/.test(file));
  if (stray.length) fail(`${name} would publish ${stray.join(', ')}`);
  for (const needed of ['README.md', 'LICENSE']) if (!files.includes(needed)) fail(`${name} lacks ${needed}`);
  const unmatched = (manifest.files ?? []).filter(
    (entry) => !files.some((file) => file === entry || file.startsWith(`${entry}/`)),
  );
  if (unmatched.length) fail(`${name}: "files" names ${unmatched.join(', ')}, which do not exist`);
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (subpath === './package.json') continue;
    // Types and both module formats for every entry: ESM (`import`) and CommonJS (`require`).
    const paths = ['import', 'require'].flatMap((condition) => [target[condition]?.types, target[condition]?.default]);
    const missing = paths.map((path) => path?.replace(/^\.\//, '')).filter((path) => !path || !files.includes(path));
    if (missing.length) fail(`${name} ${subpath}: lacks ${missing.join(', ') || 'a condition'} (types and ESM + CJS)`);
  }
  // Source maps point at src/, which is not published: their sources must be inlined.
  for (const map of files.filter((file) => file.endsWith('.map'))) {
    const { sources = [], sourcesContent = [] } = readJson(join(folder, map));
    const dangling = sources.filter(
      (source, index) => typeof sourcesContent[index] !== 'string' && !files.includes(posix.join(dirname(map), source)),
    );
    if (dangling.length) fail(`${name} ${map} points at ${dangling.join(', ')}, neither packed nor inlined`);
  }
  checkOneCopy(name, folder, files);
  return { name, files };
}

/**
 * Each source file of a package is bundled into one output file per module format: two CommonJS
 * entries that each held their own copy of a module would each have their own classes
 * (`instanceof` fails across them) and their own registries (a resource defined through one is
 * "not a resource" to the other).
 */
function checkOneCopy(name, folder, files) {
  for (const format of ['.cjs.map', '.js.map']) {
    const holders = new Map();
    for (const map of files.filter((file) => file.endsWith(format))) {
      for (const source of readJson(join(folder, map)).sources ?? []) {
        if (source.includes('node_modules')) continue;
        holders.set(source, [...(holders.get(source) ?? []), map.replace(/\.map$/, '')]);
      }
    }
    const copied = [...holders].filter(([, outputs]) => outputs.length > 1);
    if (copied.length) {
      const [source, outputs] = copied[0];
      fail(
        `${name}: ${copied.length} modules are bundled more than once in ${format.slice(0, -4)}, e.g. ${source} in ${outputs.join(', ')}`,
      );
    }
  }
}
