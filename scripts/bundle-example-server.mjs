// Bundles an example's server (examples/books/src/server.ts by default, or another entry such as
// server-fetch.ts, or another example's) with the workspace packages taken from their sources,
// so that it runs without a build: used by the end-to-end tests (e2e/helpers/), the library
// example's start test and the soak test (bench/soak.mjs).
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));

/**
 * `@resourcery/<package>` → `packages/<package>/src/index.ts`; `@resourcery/<package>/<entry>` →
 * `packages/<package>/src/<entry>.ts`, or `src/<entry>/index.ts` when the entry is a folder
 * (as `vitest.shared.ts` and `tsconfig.json` map them).
 */
export const WORKSPACE_IMPORT = /^@resourcery\/([^/]+)(?:\/(.+))?$/;

/**
 * The source file of a workspace import (`@resourcery/<package>[/<entry>]`), as {@link WORKSPACE_IMPORT} maps it,
 * in this checkout or in the one at `checkout` (another commit's, for a benchmark that compares builds).
 */
export function workspaceSource(path, checkout = root) {
  const [, name, entry] = WORKSPACE_IMPORT.exec(path);
  const src = join(checkout, 'packages', name, 'src');
  if (entry === undefined) return join(src, 'index.ts');
  const file = join(src, `${entry}.ts`);
  return existsSync(file) ? file : join(src, entry, 'index.ts');
}

/**
 * Writes the bundle of `examples/<example>/src/<entry>` (example `books` unless `options.example`
 * says otherwise; `options.source`, a file of the repository, instead) into
 * `node_modules/.cache/<cacheName>` (or to `options.outfile`), where Node (or Bun, Deno) finds the
 * installed dependencies (express, the drivers...), which stay outside it; answers the bundle's path.
 */
export async function bundleExampleServer(cacheName, entry = 'server.ts', options = {}) {
  const example = options.source ? 'repo' : (options.example ?? 'books');
  const folder = join(root, 'node_modules/.cache', cacheName);
  const outfile = options.outfile ?? join(folder, `${example}-${entry.replace(/\.ts$/, '')}-${process.pid}.mjs`);
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [options.source ? join(root, options.source) : join(root, 'examples', example, 'src', entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'error',
    plugins: [
      {
        name: 'workspace-sources',
        setup(builder) {
          builder.onResolve({ filter: WORKSPACE_IMPORT }, ({ path }) => ({ path: workspaceSource(path) }));
          // Every other package stays external: Node loads it from node_modules.
          builder.onResolve({ filter: /^[^./]/ }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
  });
  return outfile;
}
