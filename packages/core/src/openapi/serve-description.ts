import { echo } from '../errors/echo.js';
import { HttpError, NotFoundError } from '../errors/http-error.js';
import type { NeutralRequest, NeutralResponse } from '../http/neutral.js';
import type { Resource } from '../resource/options.js';
import { type OpenApiOptions, openApiDocument } from './build-document.js';
import { docsAsset, docsPage, type StaticFile, staticFile } from './docs-page.js';
import { checkSecurity } from './security.js';

/**
 * The self-description options of `createApi` (and so of every adapter).
 *
 * @example
 * ```ts
 * createApi({ resources: [books], store, openapi: { title: 'Books API', version: '1.4.0' }, docs: false });
 * ```
 */
export interface DescriptionOptions {
  /**
   * Serves the OpenAPI 3.1 document of the resources at `GET <base>/openapi.json`, with this
   * title and version. On by default; `false` turns it (and the docs page) off.
   */
  openapi?: false | Omit<OpenApiOptions, 'basePath' | 'authenticate' | 'tenancy'>;
  /** Serves an interactive reference (Swagger UI, from `node_modules`) at `GET <base>/docs`. Default `true`. */
  docs?: boolean;
}

/**
 * Answers the description's own requests; `undefined`, synchronously, for every other path, so
 * that resource requests pay nothing for it.
 */
export type DescriptionHandler = (request: NeutralRequest) => Promise<NeutralResponse> | undefined;

const ALLOW = 'GET, HEAD, OPTIONS';
// No other site may frame the page or the document (clickjacking "Try it out"): the CSP's
// `frame-ancestors` for current browsers, `X-Frame-Options` for older ones.
const PAGE_HEADERS = { 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff', 'X-Frame-Options': 'DENY' };
// The page loads only its own files; Swagger UI sets inline styles and draws data: images.
const PAGE_POLICY =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'";
// The assets' URLs do not carry the package version: cache for a day, then revalidate.
const ASSET_HEADERS = { 'Cache-Control': 'public, max-age=86400', 'X-Content-Type-Options': 'nosniff' };

function reply(request: NeutralRequest, file: StaticFile, extra: Record<string, string>): NeutralResponse {
  const headers = { ...extra, ETag: file.etag };
  const known = request.headers['if-none-match']?.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
  if (known?.includes(file.etag) || known?.includes('*')) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'Content-Type': file.contentType }, body: file.body };
}

/**
 * Builds the handler of `<base>/openapi.json`, `<base>/docs` and the docs page's files
 * (`<base>/docs/<file>`), and refuses at start-up a resource whose path they would hide.
 * `createApi` calls it; adapters get the description without doing anything.
 *
 * @example
 * ```ts
 * const describe = describeApi([books], { openapi: { title: 'Books API' } });
 * const response = await describe({ method: 'GET', path: '/openapi.json', basePath: '/api', rawQuery: '', headers: {} });
 * ```
 */
export function describeApi(
  // biome-ignore lint/suspicious/noExplicitAny: resources of any model and state are accepted
  resources: readonly Resource<any, any>[],
  options: DescriptionOptions & Pick<OpenApiOptions, 'authenticate' | 'tenancy'>,
): DescriptionHandler {
  const openapi = options.openapi ?? {};
  if (openapi === false && options.docs === true) {
    throw new TypeError('createApi: the docs page shows the OpenAPI document; `docs: true` needs `openapi` not false');
  }
  if (openapi !== false) checkSecurity(openapi);
  const docs = openapi !== false && options.docs !== false;
  for (const resource of resources) {
    const hidden = (openapi !== false && resource.path === 'openapi.json') || (docs && resource.path === 'docs');
    if (hidden) {
      throw new TypeError(
        `createApi: resource "${resource.name}" uses the path "${resource.path}", where the API's ${resource.path === 'docs' ? 'docs page' : 'OpenAPI document'} is served: give it another \`path\`, or turn that off with \`${resource.path === 'docs' ? 'docs' : 'openapi'}: false\``,
      );
    }
  }

  // One document per mount point (it names the server URL); mount points are few.
  const documents = new Map<string, StaticFile>();
  const documentFor = (basePath: string): StaticFile => {
    let file = documents.get(basePath);
    if (!file) {
      // The API's authentication and tenancy say what the document declares of them.
      const { authenticate, tenancy } = options;
      const document = openApiDocument(resources, { ...(openapi || {}), basePath, authenticate, tenancy });
      file = staticFile(`${JSON.stringify(document, null, 2)}\n`, 'application/json; charset=utf-8');
      if (documents.size >= 16) documents.clear();
      documents.set(basePath, file);
    }
    return file;
  };
  const title = (openapi !== false && openapi.title) || 'API';

  const serve = async (request: NeutralRequest, isDocument: boolean): Promise<NeutralResponse> => {
    const { path } = request;
    if (request.method === 'OPTIONS') return { status: 204, headers: { Allow: ALLOW } };
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', {
        detail: `${echo(request.method, 20)} is not allowed on ${echo(request.basePath + path)}; allowed: ${ALLOW}`,
        headers: { Allow: ALLOW },
      });
    }
    if (isDocument) return reply(request, documentFor(request.basePath), { ...PAGE_HEADERS });
    if (path === '/docs' || path === '/docs/') {
      const page = docsPage(title, path === '/docs' ? 'docs/' : '');
      return reply(request, page, { ...PAGE_HEADERS, 'Content-Security-Policy': PAGE_POLICY });
    }
    const asset = docsAsset(path.slice('/docs/'.length));
    if (!asset) throw new NotFoundError(`No docs file at ${echo(request.basePath + path)}`);
    return reply(request, await asset, ASSET_HEADERS);
  };

  return (request) => {
    const isDocument = openapi !== false && request.path === '/openapi.json';
    const isDocs = docs && (request.path === '/docs' || request.path.startsWith('/docs/'));
    return isDocument || isDocs ? serve(request, isDocument) : undefined;
  };
}
