// The example's server, as a process: a request refused before its body is read is answered at
// once (no `100 Continue` first) and reaches a client that keeps sending, never as a reset.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exchange, statusLines } from '../packages/node/test/raw-client.js';
import { bundleExampleServer, ExampleServer } from './helpers/example-server.js';

const MB = 1024 * 1024;
let server: ExampleServer;
let port: number;

beforeAll(async () => {
  server = await ExampleServer.start(await bundleExampleServer(), 'memory:');
  port = Number(new URL(server.origin).port);
});
afterAll(() => server?.kill());

it('Expect: 100-continue with a Content-Length over the limit is 413 at once, without 100 Continue', async () => {
  const head = `POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: ${3 * MB}\r\n\r\n`;
  const { answer, error } = await exchange(port, head, { size: 3 * MB, afterContinue: true });
  expect(error).toBeUndefined();
  expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
});

it('Expect: 100-continue with an acceptable body gets 100 Continue, then its answer', async () => {
  const body = JSON.stringify({ name: 'Dune', author: 'Frank Herbert' });
  const head = `POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: ${body.length}\r\n\r\n`;
  const { answer } = await exchange(port, head, { size: 0, afterContinue: true, text: body });
  expect(statusLines(answer)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
});

it('several clients that keep sending a 3 MB body all read their 413', async () => {
  const head = `POST /api/books HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${3 * MB}\r\n\r\n`;
  const replies = await Promise.all(Array.from({ length: 8 }, () => exchange(port, head, { size: 3 * MB })));
  for (const { answer, error } of replies) {
    expect(error).toBeUndefined();
    expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
  }
});
