import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { memoryStore, UnauthorizedError } from '@resourcery/core';
import { bookResource } from '@resourcery/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { answerClientErrors, createListener, deferContinue } from '../src/index.js';
import { exchange, statusLines } from './raw-client.js';

const MB = 1024 * 1024;
const JSON_HEAD = 'Host: x\r\nContent-Type: application/json\r\n';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** The books API under `/api`, `/echo` answering its body's size; only signed-in clients may create. */
async function start(prepare: (server: Server) => Server = (plain) => plain): Promise<number> {
  const books = createListener({
    resources: [bookResource()],
    store: memoryStore(),
    basePath: '/api',
    hooks: {
      before: {
        create: (ctx) => {
          if (ctx.request.headers.authorization === undefined) throw new UnauthorizedError();
        },
      },
    },
  });
  const listener: RequestListener = (req, res) => {
    if (req.url !== '/echo') return books(req, res);
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
    });
    req.on('end', () => res.end(String(size)));
  };
  server = prepare(createServer(listener));
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

describe('a 413 while the client is still sending its body', () => {
  it('reaches several clients that keep sending a 3 MB body, none of them reset', async () => {
    const port = await start();
    const head = `POST /api/books HTTP/1.1\r\n${JSON_HEAD}Authorization: Bearer a\r\nContent-Length: ${3 * MB}\r\n\r\n`;
    const replies = await Promise.all(Array.from({ length: 8 }, () => exchange(port, head, { size: 3 * MB })));
    for (const { answer, error } of replies) {
      expect(error, answer.slice(0, 100)).toBeUndefined();
      expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
      expect(answer).toMatch(/\r\nConnection: close\r\n/i);
      expect(answer).toContain('"code":"payload_too_large"');
    }
  });

  it('reaches clients that keep sending a chunked body past the limit', async () => {
    const port = await start();
    const head = `POST /api/books HTTP/1.1\r\n${JSON_HEAD}Authorization: Bearer a\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => exchange(port, head, { size: 8 * MB, chunked: true })),
    );
    for (const { answer, error } of replies) {
      expect(error, answer.slice(0, 100)).toBeUndefined();
      expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
    }
  });
});

describe('Expect: 100-continue, with deferContinue(server)', () => {
  const expecting = (length: number, more = '') =>
    `POST /api/books HTTP/1.1\r\n${JSON_HEAD}${more}Expect: 100-continue\r\nContent-Length: ${length}\r\n\r\n`;

  it('a Content-Length over the limit is 413 at once: no 100 Continue, no body sent', async () => {
    const port = await start((plain) => deferContinue(answerClientErrors(plain)));
    const { answer, error } = await exchange(port, expecting(3 * MB, 'Authorization: Bearer a\r\n'), {
      size: 3 * MB,
      afterContinue: true,
    });
    expect(error).toBeUndefined();
    expect(statusLines(answer)).toEqual(['HTTP/1.1 413 Payload Too Large']);
  });

  it('a before hook refusing the request answers without 100 Continue, and closes the connection', async () => {
    const port = await start(deferContinue);
    const { answer, error } = await exchange(port, expecting(100), { size: 100, afterContinue: true });
    expect(error).toBeUndefined();
    expect(statusLines(answer)).toEqual(['HTTP/1.1 401 Unauthorized']);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
  });

  it('a body the API reads gets 100 Continue first, then the answer', async () => {
    const port = await start(deferContinue);
    const body = JSON.stringify({ name: 'Dune', author: 'Frank Herbert' });
    const head = expecting(Buffer.byteLength(body), 'Authorization: Bearer a\r\nConnection: close\r\n');
    const { answer: reply } = await exchange(port, head, { size: 0, text: body, afterContinue: true });
    expect(statusLines(reply)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    expect(reply).toContain('"name":"Dune"');
  });

  it('another route of the server gets its 100 Continue when it reads the body', async () => {
    const port = await start(deferContinue);
    const head = `POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: 100-continue\r\nContent-Length: ${MB}\r\n\r\n`;
    const { answer, error } = await exchange(port, head, { size: MB, afterContinue: true });
    expect(error).toBeUndefined();
    expect(statusLines(answer)).toEqual(['HTTP/1.1 100 Continue', 'HTTP/1.1 200 OK']);
    expect(answer.endsWith(`\r\n\r\n${MB}`)).toBe(true);
  });
});
