import { memoryStore } from '@resourcery/core';
import { expect, it } from 'vitest';
import { createApp } from '../src/app.js';

it('serves books over HTTP', async () => {
  const server = createApp(memoryStore()).listen(0);
  const { port } = server.address() as { port: number };
  const res = await fetch(`http://127.0.0.1:${port}/api/books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dune', author: 'Herbert' }),
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ book: { id: 1, name: 'Dune', author: 'Herbert' } });
  const missing = await fetch(`http://127.0.0.1:${port}/api/books`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Dune' }),
  });
  expect(missing.status).toBe(422);
  expect((await missing.json()).errors).toEqual({ author: ['is required'] });
  server.close();
});
