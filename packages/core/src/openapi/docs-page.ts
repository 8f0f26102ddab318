import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** A text file to serve, with its validator. */
export interface StaticFile {
  readonly body: string;
  readonly contentType: string;
  readonly etag: string;
}

/** The swagger-ui-dist files the page loads (an allow-list: nothing else of the package is served). */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  // Source maps, for when a developer opens the browser's tools on the page.
  'swagger-ui.css.map': 'application/json; charset=utf-8',
  'swagger-ui-bundle.js.map': 'application/json; charset=utf-8',
};

/**
 * Starts Swagger UI on the document next to the page. The URL is resolved against this script's
 * own URL, so the page works under any mount point and behind a proxy that adds a prefix; it is a
 * file rather than an inline script so that a strict Content-Security-Policy allows it.
 */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: new URL('../openapi.json', document.currentScript.src).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
  validatorUrl: null,
});
`;

const etagOf = (body: string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 20)}"`;

/** A served text with its ETag. */
export function staticFile(body: string, contentType: string): StaticFile {
  return { body, contentType, etag: etagOf(body) };
}

const files = new Map<string, Promise<StaticFile>>();

/**
 * The directory of the installed swagger-ui-dist package, resolved as Node resolves imports;
 * `undefined` when it is not installed (an optional peer dependency). Looked up on every request
 * of the page until found, so that installing it needs no restart.
 */
function swaggerUiDirectory(): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  } catch {
    return undefined;
  }
}

/**
 * A file of the docs page below `<base>/docs/`: the start script, or an allowed swagger-ui-dist
 * asset read from `node_modules` (once; they do not change while the process runs). `undefined`
 * for any other name.
 */
export function docsAsset(name: string): Promise<StaticFile> | undefined {
  if (name === 'init.js') return Promise.resolve(staticFile(INIT_SCRIPT, 'text/javascript; charset=utf-8'));
  const contentType = ASSETS[name];
  if (!contentType) return undefined;
  let file = files.get(name);
  if (!file) {
    const directory = swaggerUiDirectory();
    if (directory === undefined) return undefined;
    file = readFile(join(directory, name), 'utf8').then((body) => staticFile(body, contentType));
    // A failed read (package missing) is retried on the next request rather than cached.
    file.catch(() => files.delete(name));
    files.set(name, file);
  }
  return file;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/**
 * The HTML of the docs page. `prefix` leads from the page's URL to the `docs/` folder:
 * `docs/` when the page is `<base>/docs`, empty when it is `<base>/docs/`. Without
 * swagger-ui-dist installed, a short page saying how to install it, and where the document is.
 */
export function docsPage(title: string, prefix: string): StaticFile {
  if (swaggerUiDirectory() === undefined) return installPage(title, prefix === '' ? '../openapi.json' : 'openapi.json');
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${prefix}swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${prefix}swagger-ui-bundle.js"></script>
<script src="${prefix}init.js"></script>
</body>
</html>
`;
  return staticFile(html, 'text/html; charset=utf-8');
}

/** The page served instead of Swagger UI while its package is missing: what to do, not a crash. */
function installPage(title: string, documentUrl: string): StaticFile {
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p>This page shows the API's OpenAPI document with Swagger UI, from the <code>swagger-ui-dist</code>
package, which is not installed. Install it in the server's project, then reload this page:</p>
<pre>npm install swagger-ui-dist</pre>
<p><code>swagger-ui-dist</code> depends on <code>@scarf/scarf</code>, which reports installs to its
authors: to opt out, add <code>"scarfSettings": { "enabled": false }</code> to your
<code>package.json</code> before installing, or set <code>SCARF_ANALYTICS=false</code>.</p>
<p>The OpenAPI document itself is served without it: <a href="${documentUrl}">openapi.json</a>.</p>
</body>
</html>
`;
  return staticFile(html, 'text/html; charset=utf-8');
}
