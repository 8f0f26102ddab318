/**
 * Bundles the books example's server (`examples/books/src/<entry>`, default `server.ts`) with the
 * workspace packages from their sources into `node_modules/.cache/<cacheName>`; answers the
 * bundle's path.
 */
export function bundleExampleServer(cacheName: string, entry?: string): Promise<string>;
