import { memoryStore } from '@resourcery/core';
import { bookResource } from '@resourcery/testing';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { resourcery } from '../src/index.js';
import { mountedExactly, mountPaths } from '../src/mount-paths.js';
import { serve } from './serve.js';

// Paths are case-sensitive, the mount path included, though Express matches `app.use('/api', ...)`
// for `/API` too: the middleware finds the path it was mounted at and answers the 404 itself.

let close: () => Promise<void> = async () => {};
afterEach(() => close());

const api = () => resourcery({ resources: [bookResource()], store: memoryStore() });

async function start(app: Express): Promise<(path: string) => Promise<Response>> {
  const server = await serve(app);
  close = server.close;
  const origin = new URL(server.api).origin;
  return (path) => fetch(`${origin}${path}`);
}

async function expectNotFound(response: Response): Promise<void> {
  expect(response.status, response.url).toBe(404);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect((await response.json()).detail).toContain('case-sensitive');
}

describe('the mount path', () => {
  it('is compared exactly: /API/books is a 404 problem when mounted at /api', async () => {
    const get = await start(express().use('/api', api()));
    expect((await get('/api/books')).status).toBe(200);
    for (const path of ['/API/books', '/Api/books/1', '/API/openapi.json']) await expectNotFound(await get(path));
  });

  it('includes the path of the routers it is mounted under', async () => {
    const router = express.Router();
    router.use('/api', api());
    const app = express().use('/v1', router);
    const get = await start(app);
    expect((await get('/v1/api/books')).status).toBe(200);
    for (const path of ['/V1/api/books', '/v1/API/books']) await expectNotFound(await get(path));
  });

  it('is checked for each middleware of an app on its own', async () => {
    const get = await start(express().use('/one', api()).use('/two/', api()));
    expect((await get('/one/books')).status).toBe(200);
    expect((await get('/two/books')).status).toBe(200);
    for (const path of ['/ONE/books', '/Two/books']) await expectNotFound(await get(path));
  });

  it('is not looked for on Express 4, whose app.router getter throws and whose layers keep no path', () => {
    const express4 = {
      get router(): never {
        throw new Error("'app.router' is deprecated!");
      },
      _router: { stack: [{ handle: () => undefined, regexp: /^\/api\/?(?=\/|$)/i }] },
    };
    expect(mountPaths(express4, () => undefined)).toBeUndefined();
  });

  it('is not looked for when the app routes case-sensitively: Express matched it exactly', async () => {
    let reads = 0;
    const app = {
      enabled: (setting: string) => setting === 'case sensitive routing',
      get router() {
        reads++;
        return { stack: [] };
      },
    };
    expect(mountedExactly({ app, baseUrl: '/api' } as unknown as Request, () => undefined)).toBe(true);
    expect(reads).toBe(0);
    const get = await start(express().set('case sensitive routing', true).use('/api', api()));
    expect((await get('/api/books')).status).toBe(200);
    expect((await get('/API/books')).headers.get('content-type')).not.toBe('application/problem+json'); // Express's own 404
  });

  it('is left to Express when it cannot be known (a pattern, a wrapping function)', async () => {
    const inner = api();
    const wrapped: RequestHandler = (req, res, next) => inner(req, res, next);
    const get = await start(express().use('/:tenant/api', api()).use('/wrapped', wrapped));
    expect((await get('/acme/api/books')).status).toBe(200);
    expect((await get('/ACME/API/books')).status).toBe(200);
    expect((await get('/WRAPPED/books')).status).toBe(200);
  });
});
