import { type NeutralResponse, unknownPathResponse } from '@resourcery/core/adapter';
import type { Request } from 'express';

// Why this reads the router's layers, which Express does not document: no supported API tells a
// middleware function the path it was mounted at, as declared. `app.mountpath` and the `mount`
// event exist for a sub-application only (and a sub-application would re-run Express's request
// setup on every request, and take the parent's settings only when mounted); `req.baseUrl` is
// the path as the request spelled it, not as it was declared; `req.route` is set for routes, not
// for middleware. So where Express matched case-insensitively (its default), the adapter reads
// the declared paths from the layers (Express 5 keeps them as `rawPath`) and, wherever they
// cannot be read, answers as if the request were spelled right: the check only ever refuses,
// never admits. With `case sensitive routing` enabled (a documented setting), Express itself
// matched the mount path exactly and nothing is read.

/** What this module reads of an Express router layer. */
interface Layer {
  readonly handle?: unknown;
  readonly route?: unknown;
  /** The path the layer was declared with (Express 5; Express 4 keeps none). */
  readonly rawPath?: unknown;
}

/** A path with no parameter, wildcard, optional part or pattern: compared as it is. */
const LITERAL = /^[^:*?(){}[\]+!\\]*$/;

interface Found {
  readonly paths: string[];
  /** The handler is mounted somewhere whose path cannot be compared (a pattern, a RegExp). */
  unknown: boolean;
}

const stackOf = (value: unknown): readonly Layer[] | undefined => {
  const stack = (value as { stack?: unknown } | null | undefined)?.stack;
  return Array.isArray(stack) ? (stack as Layer[]) : undefined;
};

/** Every declared path of a layer (`app.use(['/a', '/b'], fn)` declares two), or `undefined` if one is not literal. */
function declaredPaths(layer: Layer): string[] | undefined {
  const raw = Array.isArray(layer.rawPath) ? layer.rawPath : [layer.rawPath];
  if (!raw.every((path): path is string => typeof path === 'string' && LITERAL.test(path))) return undefined;
  return raw.map((path) => path.replace(/\/+$/, ''));
}

function search(stack: readonly Layer[], handler: unknown, prefix: string, found: Found, depth: number): void {
  for (const layer of stack) {
    const nested = layer.route === undefined ? stackOf(layer.handle) : undefined;
    if (layer.handle !== handler && (!nested || depth >= 8)) continue;
    const paths = declaredPaths(layer);
    if (layer.handle === handler) {
      if (paths) found.paths.push(...paths.map((path) => prefix + path));
      else found.unknown = true;
    } else if (nested) {
      // A router mounted at a pattern: whatever is inside it cannot be compared either.
      const inner: Found = { paths: [], unknown: false };
      for (const path of paths ?? ['']) search(nested, handler, prefix + path, inner, depth + 1);
      found.paths.push(...inner.paths);
      found.unknown ||= inner.unknown || (paths === undefined && inner.paths.length > 0);
    }
  }
}

/** The app's router: Express 5's `app.router` (Express 4's getter of that name throws, and its layers keep no path). */
function routerOf(app: unknown): unknown {
  try {
    return (app as { router?: unknown } | undefined)?.router;
  } catch {
    return undefined;
  }
}

/** Per router and handler: the answer, and the stack length it was computed for (a later `use` recomputes). */
const cache = new WeakMap<object, Map<unknown, { length: number; paths: readonly string[] | undefined }>>();

/**
 * The paths `handler` is mounted at in an Express app, as declared (`app.use('/api', handler)`
 * gives `['/api']`, a router mounted at `/v1` holding it `['/v1/api']`), read from the layers of
 * the app's router, which Express 5 keeps with their declared path. `undefined` when they cannot
 * be known: Express 4, a path with parameters or a regular expression, a handler wrapped in
 * another function.
 */
export function mountPaths(app: unknown, handler: unknown): readonly string[] | undefined {
  const router = routerOf(app);
  const stack = stackOf(router);
  if (!stack) return undefined;
  let known = cache.get(router as object);
  if (!known) {
    known = new Map();
    cache.set(router as object, known);
  }
  const cached = known.get(handler);
  if (cached && cached.length === stack.length) return cached.paths;
  const found: Found = { paths: [], unknown: false };
  search(stack, handler, '', found, 0);
  const paths = found.unknown || found.paths.length === 0 ? undefined : found.paths;
  known.set(handler, { length: stack.length, paths });
  return paths;
}

/**
 * Whether the request reached `handler` through a mount path spelled exactly as declared:
 * Express matches mount paths case-insensitively unless the app enables `case sensitive
 * routing`, but the API's paths are case-sensitive everywhere. `true` when it cannot be known.
 */
export function mountedExactly(req: Request, handler: unknown): boolean {
  if (req.app.enabled('case sensitive routing')) return true;
  const paths = mountPaths(req.app, handler);
  return paths === undefined || paths.some((path) => req.baseUrl.endsWith(path));
}

/** The 404 of a request that reached the API through a differently spelled mount path. */
export function unknownBase(req: Request): NeutralResponse {
  const url = req.originalUrl;
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return unknownPathResponse(path);
}
