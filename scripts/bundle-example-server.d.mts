/**
 * Bundles the books example's server with the workspace packages from their sources into
 * `node_modules/.cache/<cacheName>`; answers the bundle's path.
 */
export function bundleExampleServer(cacheName: string): Promise<string>;
