/**
 * Bundles an example's server (`examples/<example>/src/<entry>`: example `books` and entry
 * `server.ts` by default) with the workspace packages from their sources into
 * `node_modules/.cache/<cacheName>` (or `outfile`); answers the bundle's path.
 */
export function bundleExampleServer(
  cacheName: string,
  entry?: string,
  options?: { example?: string; outfile?: string },
): Promise<string>;
