// Loads the library's packages for a benchmark, built or from their sources. `--source` bundles
// `@resourcery/*` from `packages/<name>/src` with esbuild (no build, nothing written under
// packages/), so that a benchmark can run while the packages are being changed; without it, the
// built `dist/` is used, as a user would. The bundle goes to node_modules/.cache/resourcery-bench,
// where Node finds the installed dependencies (kysely, the drivers, class-validator), which stay
// outside it: the Kysely classes the benchmark uses are then the store's own.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { WORKSPACE_IMPORT, workspaceSource } from '../../scripts/bundle-example-server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));

/**
 * Writes `code` (an ES module whose imports are relative to the repository's root, or packages)
 * as a bundle under node_modules/.cache/resourcery-bench and answers its path: workspace packages
 * from their sources when `source` is true (this checkout's, or those of `checkout`, another
 * commit's worktree), else from `dist/`; TypeScript files of the repository (the examples'
 * models) are compiled with the repository's decorator settings.
 *
 * @example
 * ```js
 * const file = await writeBundle(`export { sqlStore } from '@resourcery/sql';`, { source: true, name: 'sql' });
 * ```
 */
export async function writeBundle(code, { source, name, checkout }) {
  const folder = join(root, 'node_modules/.cache/resourcery-bench');
  mkdirSync(folder, { recursive: true });
  const outfile = join(folder, `${name}-${source ? 'source' : 'dist'}-${process.pid}.mjs`);
  await build({
    stdin: { contents: code, resolveDir: root, loader: 'ts', sourcefile: `${name}-entry.ts` },
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    tsconfig: join(root, 'tsconfig.base.json'),
    plugins: [
      {
        name: 'workspace-packages',
        setup(builder) {
          builder.onResolve({ filter: WORKSPACE_IMPORT }, ({ path }) =>
            source ? { path: workspaceSource(path, checkout) } : { path, external: true },
          );
          // Every other package stays external: Node loads it from node_modules.
          builder.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
  });
  return outfile;
}

/**
 * Imports `code` as a bundle ({@link writeBundle}), then removes the bundle's file.
 *
 * @example
 * ```js
 * const lib = await importBundle(`export { sqlStore } from '@resourcery/sql';`, { source: true, name: 'sql' });
 * ```
 */
export async function importBundle(code, options) {
  const outfile = await writeBundle(code, options);
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true }); // loaded: one bundle per run, none left behind
  }
}
