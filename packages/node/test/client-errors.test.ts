import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { memoryStore } from '@resourcery/core';
import { bookResource } from '@resourcery/testing';
import { describe, expect, it } from 'vitest';
import { answerClientErrors, createListener } from '../src/index.js';

/** Sends raw bytes and answers everything the server wrote back before closing. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('answerClientErrors', () => {
  it('answers oversized headers and unparsable requests with problem+json', async () => {
    const server = answerClientErrors(
      createServer(createListener({ resources: [bookResource()], store: memoryStore(), basePath: '/api' })),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const huge = await raw(port, `GET /api/books HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
      expect(huge).toContain('Content-Type: application/problem+json');
      expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 431 });

      const garbage = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(JSON.parse(garbage.slice(garbage.indexOf('\r\n\r\n') + 4))).toMatchObject({ status: 400 });

      // The server keeps serving.
      expect((await fetch(`http://127.0.0.1:${port}/api/books`)).status).toBe(200);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
