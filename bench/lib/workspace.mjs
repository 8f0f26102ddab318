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
 * Imports `code` (an ES module whose imports are relative to the repository's root, or packages)
 * as a bundle: workspace packages from their sources when `source` is true, else from `dist/`;
 * TypeScript files of the repository (the examples' models) are compiled with the repository's
 * decorator settings.
 *
 * @example
 * ```js
 * const lib = await importBundle(`export { sqlStore } from '@resourcery/sql';`, { source: true, name: 'sql' });
 * ```
 */
export async function importBundle(code, { source, name }) {
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
            source ? { path: workspaceSource(path) } : { path, external: true },
          );
          // Every other package stays external: Node loads it from node_modules.
          builder.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
  });
  try {
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(outfile, { force: true }); // loaded: one bundle per run, none left behind
  }
}
