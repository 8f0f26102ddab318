import 'reflect-metadata';
import { Book } from '@resourcery/testing';
import { describe, expect, it, vi } from 'vitest';
import { createApi } from '../src/api/create-api.js';
import type { NeutralRequest } from '../src/http/neutral.js';
import { defineResource } from '../src/resource/define-resource.js';
import { memoryStore } from '../src/store/memory-store.js';

// swagger-ui-dist is an optional peer dependency of the core: here it is not installed (its
// resolution fails as it does in a project without it). serve-description.test.ts covers the page
// when it is.
vi.mock('node:module', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:module')>();
  const createRequire = (url: string | URL) => {
    const require = actual.createRequire(url);
    const resolve = (id: string) => {
      if (id.startsWith('swagger-ui-dist')) {
        throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
      }
      return require.resolve(id);
    };
    return Object.assign((id: string) => require(id), require, { resolve });
  };
  return { ...actual, default: { ...actual, createRequire }, createRequire };
});

const books = defineResource({ name: 'book', model: Book });
const api = createApi({ resources: [books], store: memoryStore(), openapi: { title: 'Books <API>' } });
const get = (path: string): NeutralRequest => ({ method: 'GET', path, basePath: '/api', rawQuery: '', headers: {} });

describe('the docs page without swagger-ui-dist installed', () => {
  it('answers a short page saying how to install it, with a link to the document', async () => {
    for (const [path, link] of [
      ['/docs', 'openapi.json'],
      ['/docs/', '../openapi.json'],
    ] as const) {
      const page = await api.handle(get(path));
      expect(page.status, path).toBe(200);
      expect(page.headers['Content-Type']).toBe('text/html; charset=utf-8');
      expect(page.headers['Content-Security-Policy']).toContain("default-src 'self'");
      expect(page.body).toContain('<title>Books &#60;API&#62;</title>');
      expect(page.body).toContain('<pre>npm install swagger-ui-dist</pre>');
      expect(page.body).toContain(`<a href="${link}">openapi.json</a>`);
      expect(page.body).not.toContain('<script');
    }
  });

  it("answers 404 for Swagger UI's files, and still serves the document", async () => {
    for (const name of ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.map']) {
      const response = await api.handle(get(`/docs/${name}`));
      expect(response.status, name).toBe(404);
      expect(response.headers['Content-Type']).toBe('application/problem+json');
    }
    expect((await api.handle(get('/docs/init.js'))).status).toBe(200);
    expect((await api.handle(get('/openapi.json'))).status).toBe(200);
  });
});
