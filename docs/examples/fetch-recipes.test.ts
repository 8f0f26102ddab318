// The Fetch recipes of docs/adapters.md, each called as its host calls it: Hono with
// `app.request`, the Next.js route's exports and the Worker's `fetch` with Requests.
import { describe, expect, it } from 'vitest';
import { app } from './hono.js';
import { DELETE, dynamic, GET, HEAD, OPTIONS, PATCH, POST } from './next-route.js';
import worker from './worker.js';

const dune = { name: 'Dune', author: 'Frank Herbert' };
const post = (url: string, body: unknown) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('Hono (app.all)', () => {
  it('serves the API under /api with the prefix kept in Location and Link', async () => {
    const created = await app.request(post('http://localhost/api/books', dune));
    expect(created.status).toBe(200);
    expect(created.headers.get('location')).toBe('/api/books/1');
    const list = await app.request('/api/books?per_page=1');
    expect(await list.json()).toEqual({ books: [{ id: 1, ...dune }] });
    expect(list.headers.get('link')).toContain('</api/books?per_page=1&page=1>; rel="first"');
  });

  it("leaves Hono's own routes alone and answers the API's 404 below /api", async () => {
    expect(await (await app.request('/healthz')).json()).toEqual({ status: 'ok' });
    const missing = await app.request('/api/nothing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
  });
});

describe('Next.js route handler (app/api/[...path]/route.ts)', () => {
  it('exports one handler for every method, rendered dynamically', () => {
    for (const handler of [GET, POST, PATCH, DELETE, HEAD, OPTIONS]) expect(handler).toBeTypeOf('function');
    expect(dynamic).toBe('force-dynamic');
  });

  it('creates, updates, shows, lists and destroys through the exports', async () => {
    const created = await POST(post('http://localhost/api/books', dune));
    const { book } = (await created.json()) as { book: { id: number } };
    const patch = new Request(`http://localhost/api/books/${book.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Dune Messiah' }),
    });
    expect((await PATCH(patch)).status).toBe(200);
    const shown = await GET(new Request(`http://localhost/api/books/${book.id}`));
    expect(await shown.json()).toEqual({ book: { ...book, name: 'Dune Messiah' } });
    const head = await HEAD(new Request('http://localhost/api/books', { method: 'HEAD' }));
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await OPTIONS(new Request('http://localhost/api/books', { method: 'OPTIONS' }));
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    const gone = await DELETE(new Request(`http://localhost/api/books/${book.id}`, { method: 'DELETE' }));
    expect(gone.status).toBe(204);
    expect((await GET(new Request(`http://localhost/api/books/${book.id}`))).status).toBe(404);
  });
});

describe('Cloudflare Worker (export default { fetch })', () => {
  it('serves the API and its OpenAPI document, without the docs page', async () => {
    const created = await worker.fetch(post('https://books.example.workers.dev/api/books', dune));
    expect(await created.json()).toEqual({ book: { id: 1, ...dune } });
    const document = await worker.fetch(new Request('https://books.example.workers.dev/api/openapi.json'));
    expect(((await document.json()) as { paths: object }).paths).toHaveProperty('/books/{id}');
    expect((await worker.fetch(new Request('https://books.example.workers.dev/api/docs'))).status).toBe(404);
  });
});
