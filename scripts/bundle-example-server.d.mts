/**
 * Bundles an example's server (`examples/<example>/src/<entry>`: example `books` and entry
 * `server.ts` by default) with the workspace packages from their sources into
 * `node_modules/.cache/<cacheName>` (or `outfile`); answers the bundle's path. `source`, a file of
 * the repository (`e2e/helpers/stream-server.ts`), is bundled instead of an example's.
 */
export function bundleExampleServer(
  cacheName: string,
  entry?: string,
  options?: { example?: string; outfile?: string; source?: string },
): Promise<string>;

/** Matches a workspace import, `@resourcery/<package>[/<entry>]`. */
export const WORKSPACE_IMPORT: RegExp;

/** The source file of a workspace import under `packages/<package>/src`. */
export function workspaceSource(path: string): string;
