import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Book } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { type ApiOptions, createApi } from '../src/api/create-api.js';
import type { NeutralRequest } from '../src/http/neutral.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

const books = defineResource({ name: 'book', model: Book });
const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

function api(options: Partial<ApiOptions> = {}) {
  return createApi({ resources: [books], store: memoryStore(), ...options });
}

function get(path: string, extra: Partial<NeutralRequest> = {}): NeutralRequest {
  return { method: 'GET', path, basePath: '/api', rawQuery: '', headers: {}, ...extra };
}

describe('GET <base>/openapi.json', () => {
  it('serves the document of the mounted resources, for the mount point', async () => {
    const response = await api({ openapi: { title: 'Books', version: '3.0.0' } }).handle(get('/openapi.json'));
    expect(response.status).toBe(200);
    expect(response.headers['Content-Type']).toBe('application/json; charset=utf-8');
    const document = JSON.parse(response.body as string);
    expect(document.info).toMatchObject({ title: 'Books', version: '3.0.0' });
    expect(document.servers).toEqual([{ url: '/api' }]);
    expect(Object.keys(document.paths)).toEqual(['/books', '/books/{id}']);
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const served = api();
    const first = await served.handle(get('/openapi.json'));
    const etag = first.headers.ETag as string;
    expect(first.headers['Cache-Control']).toBe('no-cache');
    const again = await served.handle(get('/openapi.json', { headers: { 'if-none-match': `W/${etag}` } }));
    expect(again).toEqual({ status: 304, headers: expect.objectContaining({ ETag: etag }) });
    expect(again.body).toBeUndefined();
  });

  it('is 405 with Allow for other methods, 204 for OPTIONS', async () => {
    const served = api();
    const post = await served.handle(get('/openapi.json', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.Allow).toBe('GET, HEAD, OPTIONS');
    expect(post.headers['Content-Type']).toBe('application/problem+json');
    expect((await served.handle(get('/docs', { method: 'OPTIONS' }))).status).toBe(204);
  });

  it('is turned off with openapi: false, which also turns off the docs page', async () => {
    const served = api({ openapi: false });
    expect((await served.handle(get('/openapi.json'))).status).toBe(404);
    expect((await served.handle(get('/docs'))).status).toBe(404);
    expect(() => api({ openapi: false, docs: true })).toThrow(/docs: true/);
  });
});

describe('GET <base>/docs', () => {
  it('serves a page that loads Swagger UI from the docs folder', async () => {
    const served = api({ openapi: { title: 'Books <API>' } });
    const page = await served.handle(get('/docs'));
    expect(page.status).toBe(200);
    expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
    expect(page.headers['Content-Security-Policy']).toContain("default-src 'self'");
    expect(page.body).toContain('<title>Books &#60;API&#62;</title>');
    expect(page.body).toContain('<script src="docs/swagger-ui-bundle.js">');
    expect(page.body).toContain('<link rel="stylesheet" href="docs/swagger-ui.css">');
    // With a trailing slash the page is inside the folder.
    expect((await served.handle(get('/docs/'))).body).toContain('<script src="swagger-ui-bundle.js">');
  });

  it('serves the assets from node_modules with their content types and cache headers', async () => {
    const served = api();
    for (const [name, type] of [
      ['swagger-ui-bundle.js', 'text/javascript; charset=utf-8'],
      ['swagger-ui.css', 'text/css; charset=utf-8'],
      ['swagger-ui-bundle.js.map', 'application/json; charset=utf-8'],
    ] as const) {
      const response = await served.handle(get(`/docs/${name}`));
      expect(response.status, name).toBe(200);
      expect(response.headers['Content-Type']).toBe(type);
      expect(response.headers['Cache-Control']).toBe('public, max-age=86400');
      expect(response.headers.ETag).toMatch(/^"[\w-]+"$/);
      expect(response.body === readFileSync(join(swaggerUi, name), 'utf8'), name).toBe(true);
    }
    const init = await served.handle(get('/docs/init.js'));
    expect(init.body).toContain("new URL('../openapi.json', document.currentScript.src)");
  });

  it('serves nothing else of the package, nor anything outside it', async () => {
    const served = api();
    for (const path of [
      '/docs/package.json',
      '/docs/index.html',
      '/docs/../package.json',
      '/docs/%2e%2e/x',
      '/docs/a/b',
    ]) {
      const response = await served.handle(get(path));
      expect(response.status, path).toBe(404);
      expect(response.headers['Content-Type']).toBe('application/problem+json');
    }
  });

  it('is turned off with docs: false; the document stays', async () => {
    const served = api({ docs: false });
    expect((await served.handle(get('/docs'))).status).toBe(404);
    expect((await served.handle(get('/openapi.json'))).status).toBe(200);
  });
});

describe('reserved paths', () => {
  it('refuses a resource whose path the docs page would hide', () => {
    const docs = defineResource({ name: 'doc', model: Book });
    expect(() => api({ resources: [books, docs] })).toThrow(
      'createApi: resource "doc" uses the path "docs", where the API\'s docs page is served: give it another `path`, or turn that off with `docs: false`',
    );
    expect(() => api({ resources: [docs], docs: false })).not.toThrow();
  });
});
